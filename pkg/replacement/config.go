package replacement

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
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
}

// Replacement copies one value into fields of other resources: kustomize's
// replacement, field for field. An entry holding only path loads
// replacements from that file (one replacement, or a list of them).
type Replacement struct {
	Path        string   `json:"path,omitempty"`
	Source      *Source  `json:"source,omitempty"`
	SourceValue *Value   `json:"sourceValue,omitempty"`
	Targets     []Target `json:"targets,omitempty"`
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
	source      *Source
	sourceSet   *selector.SetMatcher
	sourcePath  fieldpath.Path
	sourceValue *Value
	targets     []targetRule
}

type targetRule struct {
	entry    string // rule entry + ".targets[j]"
	selector selector.Selector
	set      *selector.SetMatcher
	paths    []fieldPath
	options  Options
	// touchesIdentity: a field path under metadata, apiVersion or kind,
	// which may change what later selectors see.
	touchesIdentity bool
}

type fieldPath struct {
	text string
	path fieldpath.Path
}

// compile checks a decoded config and resolves path entries.
func compile(cfg *Config, req *fnrun.Request) ([]rule, error) {
	var rules []rule
	var errs []string
	for i, r := range cfg.Replacements {
		entry := fmt.Sprintf("replacements[%d]", i)
		if r.Path == "" {
			cr, err := compileOne(entry, r)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			rules = append(rules, cr)
			continue
		}
		if r.Source != nil || r.SourceValue != nil || r.Targets != nil {
			errs = append(errs, fmt.Sprintf("%s: path cannot be combined with source, sourceValue or targets", entry))
			continue
		}
		loaded, err := loadFile(req, r.Path)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", entry, err))
			continue
		}
		for j, lr := range loaded {
			sub := fmt.Sprintf("%s (%s)", entry, r.Path)
			if len(loaded) > 1 {
				sub = fmt.Sprintf("%s (%s[%d])", entry, r.Path, j)
			}
			if lr.Path != "" {
				errs = append(errs, fmt.Sprintf("%s: a replacement file cannot name another file (path: %s)", sub, lr.Path))
				continue
			}
			cr, err := compileOne(sub, lr)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			rules = append(rules, cr)
		}
	}
	if len(errs) > 0 {
		// One result per problem, so that all of them are reported at once.
		rs := make(framework.Results, len(errs))
		for i, e := range errs {
			rs[i] = &framework.Result{Severity: framework.Error, Message: e}
		}
		return nil, rs
	}
	return rules, nil
}

func compileOne(entry string, r Replacement) (rule, error) {
	out := rule{entry: entry, source: r.Source, sourceValue: r.SourceValue}
	switch {
	case r.Source != nil && r.SourceValue != nil:
		return out, fmt.Errorf("%s: give either source or sourceValue, not both", entry)
	case r.Source == nil && r.SourceValue == nil:
		return out, fmt.Errorf("%s: a replacement needs a source (or a sourceValue)", entry)
	case len(r.Targets) == 0:
		return out, fmt.Errorf("%s: a replacement needs at least one target", entry)
	}
	if s := r.Source; s != nil {
		text := s.FieldPath
		if text == "" {
			text = DefaultFieldPath
		}
		p, err := fieldpath.Parse(text)
		if err != nil {
			return out, fmt.Errorf("%s.source.fieldPath: %v", entry, err)
		}
		if p.HasWildcard() {
			return out, fmt.Errorf("%s.source.fieldPath %q: a source must name one value; * is for targets", entry, text)
		}
		out.sourcePath = p
		if err := checkOptions(entry+".source.options", s.Options); err != nil {
			return out, err
		}
		if s.Options != nil && s.Options.Create {
			return out, fmt.Errorf("%s.source.options.create: create applies to targets only", entry)
		}
		sel := selector.Selector{
			Group: exact(s.Group), Version: exact(s.Version), Kind: exact(s.Kind),
			Name: exact(s.Name), Namespace: exact(s.Namespace),
		}
		if out.sourceSet, err = selector.CompileSet(selector.Set{Target: &sel}); err != nil {
			return out, fmt.Errorf("%s.source: %v", entry, err)
		}
		out.sourceSet.ReadOnly() // a source may read a local-config values resource
	}
	for j, t := range r.Targets {
		te := fmt.Sprintf("%s.targets[%d]", entry, j)
		if t.Select == nil {
			return out, fmt.Errorf("%s: a target needs select", te)
		}
		tr := targetRule{entry: te, selector: *t.Select}
		if t.Options != nil {
			tr.options = *t.Options
		}
		if err := checkOptions(te+".options", t.Options); err != nil {
			return out, err
		}
		// kustomize ignores a reject selector with no field set; compiled
		// as is, it would reject everything.
		var reject []selector.Selector
		for _, rj := range t.Reject {
			if !rj.IsEmpty() {
				reject = append(reject, rj)
			}
		}
		set, err := selector.CompileSet(selector.Set{Target: t.Select, Reject: reject})
		if err != nil {
			return out, fmt.Errorf("%s: %v", te, strings.TrimPrefix(err.Error(), "target."))
		}
		tr.set = set
		paths := t.FieldPaths
		if len(paths) == 0 {
			paths = []string{DefaultFieldPath}
		}
		for k, text := range paths {
			p, err := fieldpath.Parse(text)
			if err != nil {
				return out, fmt.Errorf("%s.fieldPaths[%d]: %v", te, k, err)
			}
			tr.paths = append(tr.paths, fieldPath{text: text, path: p})
			switch p[0].Key {
			case "metadata", "apiVersion", "kind":
				tr.touchesIdentity = true
			}
		}
		out.targets = append(out.targets, tr)
	}
	return out, nil
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
func loadFile(req *fnrun.Request, path string) ([]Replacement, error) {
	b, err := req.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		return nil, req.SyntaxError(err, string(b), "", "", path)
	}
	if n.YNode().Kind == yaml.SequenceNode {
		var list []Replacement
		err = fnrun.DecodeFile(n, &list, path)
		return list, err
	}
	var one Replacement
	if err := fnrun.DecodeFile(n, &one, path); err != nil {
		return nil, err
	}
	return []Replacement{one}, nil
}
