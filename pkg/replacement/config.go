package replacement

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Config is the function config. The three accepted kinds share it:
// fn.patchwork.dev/v1alpha1 StructuredReplacement, kustomize's builtin
// ReplacementTransformer and kpt's fn.kpt.dev/v1alpha1 ApplyReplacements.
type Config struct {
	APIVersion   string         `json:"apiVersion,omitempty"`
	Kind         string         `json:"kind,omitempty"`
	Metadata     map[string]any `json:"metadata,omitempty"`
	Replacements []Replacement  `json:"replacements,omitempty"`
	// Explain and Validate say what a run tells about its changes.
	entry.Checks
}

// Replacement copies one value into fields of other resources: kustomize's
// replacement, field for field. An entry holding only path loads
// replacements from that file (one replacement, or a list of them).
type Replacement struct {
	Path        string  `json:"path,omitempty"`
	Source      *Source `json:"source,omitempty"`
	SourceValue *Value  `json:"sourceValue,omitempty"`
	// Sources name several sources for a Template, each as Source.
	Sources map[string]*Source `json:"sources,omitempty"`
	// Template builds the value from the sources: ${name} is a source's
	// value (${value} with Source), $$ a literal $.
	Template *string  `json:"template,omitempty"`
	Targets  []Target `json:"targets,omitempty"`
}

// Value is a sourceValue: a string, number or boolean, whose type is
// kept as written (sourceValue: "8080" is a string, sourceValue: 8080 a
// number). The type matters only where the target had none: a created
// field, a null, a map or list being replaced.
type Value struct {
	Value string
	Tag   string // !!str, !!int, !!float or !!bool
}

// UnmarshalJSON accepts a JSON string, number or boolean.
func (l *Value) UnmarshalJSON(b []byte) error {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	switch x := v.(type) {
	case string:
		l.Value, l.Tag = x, "!!str"
	case json.Number:
		l.Value, l.Tag = x.String(), "!!int"
		if strings.ContainsAny(l.Value, ".eE") {
			l.Tag = "!!float"
		}
	case bool:
		l.Value, l.Tag = fmt.Sprint(x), "!!bool"
	default:
		return fmt.Errorf("sourceValue must be a string, a number or a boolean")
	}
	return nil
}

// Source names the one resource and field the value comes from. Its
// selector fields are compared exactly (not as regular expressions), as
// kustomize does for sources.
type Source struct {
	Group     string   `json:"group,omitempty"`
	Version   string   `json:"version,omitempty"`
	Kind      string   `json:"kind,omitempty"`
	Name      string   `json:"name,omitempty"`
	Namespace string   `json:"namespace,omitempty"`
	FieldPath string   `json:"fieldPath,omitempty"`
	Options   *Options `json:"options,omitempty"`
}

// Target names resources (select minus reject, as in multi-patch) and the
// fields in each that receive the value.
type Target struct {
	Select     *selector.Selector  `json:"select,omitempty"`
	Reject     []selector.Selector `json:"reject,omitempty"`
	FieldPaths []string            `json:"fieldPaths,omitempty"`
	Options    *Options            `json:"options,omitempty"`
}

// Options refine how a field is read or written.
type Options struct {
	// Delimiter splits the field; Index picks the part. In a source, an
	// index out of range is an error; in a target, a negative index
	// prepends and an index past the end appends.
	Delimiter string `json:"delimiter,omitempty"`
	Index     int    `json:"index,omitempty"`
	// Encoding is declared by kustomize but never implemented; only "" is
	// accepted.
	Encoding string `json:"encoding,omitempty"`
	// Create adds a missing target field instead of failing.
	Create bool `json:"create,omitempty"`
	// Format is the language of the JSON or YAML string the field path
	// goes into: json or yaml. By default a string under a key named
	// *.json must be JSON, and any other is JSON when it parses as JSON
	// and YAML otherwise.
	Format string `json:"format,omitempty"`
}

// format is the embedded package's name for Options.Format (checked by
// checkOptions).
func (o *Options) format() embedded.Format {
	if o == nil {
		return 0
	}
	switch strings.ToLower(o.Format) {
	case "json":
		return embedded.JSON
	case "yaml", "yml":
		return embedded.YAML
	}
	return 0
}

// DefaultFieldPath is where a source or target without a field path looks.
const DefaultFieldPath = "metadata.name"

// rule is one replacement, checked and compiled.
type rule struct {
	entry       string // "replacements[2]", or "replacements[2] (more.yaml[0])"
	sources     []sourceRule
	sourceValue *Value
	template    *template // nil: the one source's value, whole
	targets     []targetRule
}

// sourceRule is one source of a replacement, compiled.
type sourceRule struct {
	entry  string // "replacements[2].source", "replacements[2].sources.host"
	name   string // its name in a template: "value" for source:
	source *Source
	set    *selector.SetMatcher
	path   fieldpath.Path
}

type targetRule struct {
	entry    string // rule entry + ".targets[j]"
	selector selector.Selector
	set      *selector.SetMatcher
	paths    []fieldPath
	options  Options
	// touchesIdentity is set for a field path under metadata, apiVersion or kind,
	// which may change what later selectors see.
	touchesIdentity bool
}

type fieldPath struct {
	text string
	path fieldpath.Path
}

// compile checks a decoded config and resolves path entries.
func compile(cfg *Config, files fnconfig.Files) ([]rule, error) {
	var rules []rule
	var errs framework.Results
	for i, r := range cfg.Replacements {
		name := fmt.Sprintf("replacements[%d]", i)
		if r.Path == "" {
			cr, err := compileOne(name, r)
			if err != nil {
				errs = append(errs, entry.Results(err)...)
				continue
			}
			rules = append(rules, cr)
			continue
		}
		if r.Source != nil || r.SourceValue != nil || r.Sources != nil || r.Template != nil || r.Targets != nil {
			errs = append(errs, fnrun.Errorf(name, nil, "", "path cannot be combined with source, sources, sourceValue, template or targets"))
			continue
		}
		loaded, err := loadFile(files, r.Path)
		if err != nil {
			errs = append(errs, fnrun.Errorf(name, nil, "", "%v", err))
			continue
		}
		for j, lr := range loaded {
			sub := fmt.Sprintf("%s (%s)", name, r.Path)
			if len(loaded) > 1 {
				sub = fmt.Sprintf("%s (%s[%d])", name, r.Path, j)
			}
			if lr.Path != "" {
				errs = append(errs, fnrun.Errorf(sub, nil, "", "a replacement file cannot name another file (path: %s)", lr.Path))
				continue
			}
			cr, err := compileOne(sub, lr)
			if err != nil {
				errs = append(errs, entry.Results(err)...)
				continue
			}
			rules = append(rules, cr)
		}
	}
	if len(errs) > 0 {
		// One result per problem, so that all of them are reported at once.
		return nil, errs
	}
	return rules, nil
}

// compileOne compiles one replacement: which value it takes (a source,
// named sources with a template, or a sourceValue) and where it writes it.
func compileOne(entry string, r Replacement) (rule, error) {
	out := rule{entry: entry, sourceValue: r.SourceValue}
	if err := checkShape(entry, r); err != nil {
		return out, err
	}
	var err error
	if out.sources, err = compileSources(entry, r); err != nil {
		return out, err
	}
	if r.Template != nil {
		if out.template, err = compileTemplate(entry, *r.Template, out.sources, r.Source != nil); err != nil {
			return out, err
		}
	}
	for j, t := range r.Targets {
		tr, err := compileTarget(fmt.Sprintf("%s.targets[%d]", entry, j), t)
		if err != nil {
			return out, err
		}
		out.targets = append(out.targets, tr)
	}
	return out, nil
}

// checkShape refuses a replacement whose fields do not go together.
func checkShape(entry string, r Replacement) error {
	given := 0
	for _, set := range []bool{r.Source != nil, r.SourceValue != nil, r.Sources != nil} {
		if set {
			given++
		}
	}
	switch {
	case given > 1:
		return fmt.Errorf("%s: give one of source, sources (with a template) and sourceValue, not several", entry)
	case given == 0:
		return fmt.Errorf("%s: a replacement needs a source (or sources and a template, or a sourceValue)", entry)
	case len(r.Targets) == 0:
		return fmt.Errorf("%s: a replacement needs at least one target", entry)
	case r.Sources != nil && r.Template == nil:
		return fmt.Errorf("%s: sources need a template that says how their values combine (template: \"${%s}\")", entry, strings.Join(sortedNames(r.Sources), "}${"))
	case r.SourceValue != nil && r.Template != nil:
		return fmt.Errorf("%s.template: a template combines sources; with a sourceValue, write the value whole", entry)
	}
	return nil
}

// compileSources compiles the one source (named "value") or the named
// sources, in the order of their names.
func compileSources(entry string, r Replacement) ([]sourceRule, error) {
	if r.Source != nil {
		sr, err := compileSource(entry+".source", "value", r.Source)
		if err != nil {
			return nil, err
		}
		return []sourceRule{sr}, nil
	}
	var out []sourceRule
	for _, name := range sortedNames(r.Sources) {
		where := entry + ".sources." + name
		if err := checkSourceName(name); err != nil {
			return nil, fmt.Errorf("%s: %v", where, err)
		}
		if r.Sources[name] == nil {
			return nil, fmt.Errorf("%s: empty; a source names a resource and a fieldPath", where)
		}
		sr, err := compileSource(where, name, r.Sources[name])
		if err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, nil
}

// compileTarget compiles one target: its selector (less empty rejects,
// which kustomize ignores), options and field paths.
func compileTarget(te string, t Target) (targetRule, error) {
	if t.Select == nil {
		return targetRule{}, fmt.Errorf("%s: a target needs select", te)
	}
	tr := targetRule{entry: te, selector: *t.Select}
	if t.Options != nil {
		tr.options = *t.Options
	}
	if err := checkOptions(te+".options", t.Options); err != nil {
		return tr, err
	}
	// kustomize ignores a reject selector with no field set; compiled as
	// is, it would reject everything.
	var reject []selector.Selector
	for _, rj := range t.Reject {
		if !rj.IsEmpty() {
			reject = append(reject, rj)
		}
	}
	set, err := selector.CompileSet(selector.Set{Target: t.Select, Reject: reject})
	if err != nil {
		return tr, fmt.Errorf("%s: %v", te, strings.TrimPrefix(err.Error(), "target."))
	}
	tr.set = set
	paths := t.FieldPaths
	if len(paths) == 0 {
		paths = []string{DefaultFieldPath}
	}
	for k, text := range paths {
		p, err := fieldpath.Parse(text)
		if err != nil {
			return tr, fmt.Errorf("%s.fieldPaths[%d]: %v", te, k, err)
		}
		tr.paths = append(tr.paths, fieldPath{text: text, path: p})
		switch p[0].Key {
		case "metadata", "apiVersion", "kind":
			tr.touchesIdentity = true
		}
	}
	return tr, nil
}

// compileSource checks one source: its field path (one value, no
// wildcard), its options, and its selector, which compares exactly.
func compileSource(where, name string, s *Source) (sourceRule, error) {
	out := sourceRule{entry: where, name: name, source: s}
	text := s.FieldPath
	if text == "" {
		text = DefaultFieldPath
	}
	p, err := fieldpath.Parse(text)
	if err != nil {
		return out, fmt.Errorf("%s.fieldPath: %v", where, err)
	}
	if p.HasWildcard() {
		return out, fmt.Errorf("%s.fieldPath %q: a source must name one value; * is for targets", where, text)
	}
	out.path = p
	if err := checkOptions(where+".options", s.Options); err != nil {
		return out, err
	}
	if s.Options != nil && s.Options.Create {
		return out, fmt.Errorf("%s.options.create: create applies to targets only", where)
	}
	sel := selector.Selector{
		Group: exact(s.Group), Version: exact(s.Version), Kind: exact(s.Kind),
		Name: exact(s.Name), Namespace: exact(s.Namespace),
	}
	if out.set, err = selector.CompileSet(selector.Set{Target: &sel}); err != nil {
		return out, fmt.Errorf("%s: %v", where, err)
	}
	out.set.ReadOnly() // a source may read a local-config values resource
	return out, nil
}

// compileTemplate parses a replacement's template and checks that it names
// exactly the sources given: an unknown name and an unused source are both
// errors, naming them.
func compileTemplate(entry, text string, sources []sourceRule, single bool) (*template, error) {
	t, err := parseTemplate(text)
	if err != nil {
		return nil, fmt.Errorf("%s.template: %v", entry, err)
	}
	var have []string
	known := map[string]bool{}
	for _, s := range sources {
		have = append(have, s.name)
		known[s.name] = true
	}
	used := map[string]bool{}
	var errs []error
	for _, name := range t.names() {
		used[name] = true
		if known[name] {
			continue
		}
		msg := fmt.Sprintf("%s.template: ${%s} names no source", entry, name)
		switch near := suggest.Nearest(name, have); {
		case single:
			msg += " (with source:, the template names its value ${value})"
		case near != "":
			msg += fmt.Sprintf(" (did you mean ${%s}? sources: %s)", near, strings.Join(have, ", "))
		default:
			msg += fmt.Sprintf(" (sources: %s)", strings.Join(have, ", "))
		}
		errs = append(errs, errors.New(msg))
	}
	for _, s := range sources {
		if !used[s.name] {
			errs = append(errs, fmt.Errorf("%s: the template does not use it (add ${%s} to the template, or remove the source)", s.entry, s.name))
		}
	}
	return t, errors.Join(errs...)
}

// sortedNames lists a sources map's names in order: messages and reads go
// by name, the same every run.
func sortedNames(m map[string]*Source) []string {
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

func checkOptions(where string, o *Options) error {
	if o != nil && o.Encoding != "" {
		return fmt.Errorf("%s.encoding: not supported (kustomize declares it but never implemented it)", where)
	}
	if o != nil && o.Format != "" && o.format() == 0 {
		return fmt.Errorf("%s.format: %q is not json or yaml", where, o.Format)
	}
	return nil
}

// exact turns a literal into a regular expression matching only itself:
// source selectors compare exactly, target selectors take expressions.
func exact(s string) string {
	if s == "" {
		return ""
	}
	return regexp.QuoteMeta(s)
}

// loadFile reads replacements from a file named in the config: one
// replacement, or a list of them, decoded as configs are (unknown fields
// with the line in that file and the field probably meant).
func loadFile(files fnconfig.Files, path string) ([]Replacement, error) {
	b, err := files.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		return nil, fnconfig.SyntaxError(nil, err, string(b), "", "", path)
	}
	if n.YNode().Kind == yaml.SequenceNode {
		var list []Replacement
		err = fnconfig.DecodeFile(n, &list, path)
		return list, err
	}
	var one Replacement
	if err := fnconfig.DecodeFile(n, &one, path); err != nil {
		return nil, err
	}
	return []Replacement{one}, nil
}
