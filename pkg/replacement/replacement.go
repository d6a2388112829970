package replacement

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the structured-replacement function.
var Function = fnrun.Function{
	Name:    fnkinds.StructuredReplacement.Name,
	Short:   "kustomize replacements whose field paths reach into JSON and YAML held in strings, editing only the bytes replaced",
	Kinds:   fnkinds.StructuredReplacement.Kinds,
	TakenBy: fnkinds.TakenBy(),
	Run:     transform,
}

// transform applies the replacements of req.Config to req.Items, in order: each
// replacement sees the result of those before it.
func transform(req *fnrun.Request) error {
	var cfg Config
	if err := fnconfig.Decode(req.Config, &cfg); err != nil {
		return err
	}
	if err := cfg.Checks.Check(); err != nil {
		return err
	}
	rules, err := compile(&cfg, req.Files())
	if err != nil {
		return err
	}
	ix := selector.NewIndex(req.Items, req.Config)
	// Strings edited by several replacements are parsed once per version.
	cache := embedded.NewCache()
	// Messages never show a value read from a Secret: sec knows which
	// resources hold one, Secrets and those a replacement copied one into.
	sec := secrecy{}
	var errs framework.Results
	b := req.Budget()
	w := &entry.Watch{Req: req, Checks: cfg.Checks, Errs: &errs, Schema: crdSchema(req)}
	for _, r := range rules {
		if b.Spent() {
			break
		}
		value, secret, secrets, res := r.value(ix, cache, sec, b)
		// a piece of a Secret's value (split off, found inside YAML it
		// holds, or a template's result holding it) is secret too: no
		// result may show it
		req.Secret(secrets...)
		if res != nil {
			errs = append(errs, res...)
			continue
		}
		changed := map[int]bool{}
		for _, t := range r.targets {
			selected := t.set.Select(ix)
			before := make([]uint64, len(selected))
			for k, i := range selected {
				before[k] = fnrun.Fingerprint(ix.Item(i))
			}
			warns, tErrs := t.apply(ix, value, secret, cache, sec, b, w)
			for k, i := range selected {
				if fnrun.Changed(before[k], ix.Item(i)) {
					changed[i] = true
				}
			}
			req.Results = append(req.Results, warns...)
			errs = append(errs, tErrs...)
		}
		req.Summarize(r.entry, "%s changed", fnrun.Plural(len(changed), "resource"))
	}
	w.Finish()
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// crdSchema is the schema validate: checks against: the built-in kinds and
// the CRDs among the items, read when first needed.
func crdSchema(req *fnrun.Request) func() *schema.Schema {
	return func() *schema.Schema {
		s, _, err := schema.Builtin().WithCRDs(req.Items)
		if err != nil {
			return schema.Builtin() // a malformed CRD: the built-in kinds only
		}
		return s
	}
}

// secrecy records the resources whose values messages must not show:
// Secrets, and the resources a replacement wrote a Secret's value into.
type secrecy map[*yaml.Node]bool

// of reports whether res's values are secret.
func (s secrecy) of(res *yaml.RNode) bool {
	return res.GetKind() == "Secret" || s[res.YNode()]
}

// scalarValues lists the scalar values in n, at any depth.
func scalarValues(n *yaml.Node) []string {
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, scalarValues(c)...)
	}
	return out
}

// value reads the replacement's value: the sourceValue, the field of the
// one resource the source selects, or the template filled in with the
// values of its sources. secret is set when any of them comes from a
// resource whose values are secret; secrets are the pieces of secret
// values the result holds, for the runner to redact. What aliases in the
// source stand for, and a template's text, are charged to b.
func (r *rule) value(ix *selector.Index, cache *embedded.Cache, sec secrecy, b *budget.Budget) (value *yaml.Node, secret bool, secrets []string, _ framework.Results) {
	if r.sourceValue != nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: r.sourceValue.Tag, Value: r.sourceValue.Value}, false, nil, nil
	}
	if r.template == nil {
		v, secret, res := r.sources[0].read(ix, cache, sec, b)
		if res != nil {
			return nil, secret, nil, framework.Results{res}
		}
		if secret {
			secrets = scalarValues(v)
		}
		return v, secret, secrets, nil
	}
	// Every source is read, so that every one that fails is reported.
	values := map[string]string{}
	var errs framework.Results
	for _, s := range r.sources {
		v, sSecret, res := s.read(ix, cache, sec, b)
		switch {
		case res != nil:
			errs = append(errs, res)
			continue
		case v.Kind != yaml.ScalarNode:
			errs = append(errs, s.errorf(ix, "leads to %s; a template takes scalar values", yamltree.Describe(v)))
			continue
		}
		values[s.name] = v.Value
		if sSecret {
			secret = true
			secrets = append(secrets, v.Value)
		}
	}
	if len(errs) > 0 {
		return nil, secret, secrets, errs
	}
	if err := b.Bytes(r.template.size(values)); err != nil {
		return nil, secret, secrets, framework.Results{fnrun.Errorf(r.entry+".template", nil, "", "%v", err)}
	}
	out := r.template.expand(values)
	if secret {
		secrets = append(secrets, out)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: out}, secret, secrets, nil
}

// errorf reports a problem with the value of a source that was found.
func (s *sourceRule) errorf(ix *selector.Index, format string, args ...any) *framework.Result {
	res := ix.Item(s.set.Select(ix)[0])
	return fnrun.Errorf(s.entry, res, s.fieldText(), format, args...)
}

func (s *sourceRule) fieldText() string {
	if s.source.FieldPath == "" {
		return DefaultFieldPath
	}
	return s.source.FieldPath
}

// read reads the field of the one resource the source selects, with its
// delimiter and index applied. secret is set when the resource's values
// are secret.
func (s *sourceRule) read(ix *selector.Index, cache *embedded.Cache, sec secrecy, b *budget.Budget) (value *yaml.Node, secret bool, _ *framework.Result) {
	found := s.set.Select(ix)
	switch len(found) {
	case 0:
		return nil, false, fnrun.Errorf(s.entry, nil, "", "%s matches no resource%s", describeSource(s.source), s.set.NearMisses(ix))
	case 1:
	default:
		return nil, false, fnrun.Errorf(s.entry, nil, "", "%s matches %d resources (%s); a source must select exactly one",
			describeSource(s.source), len(found), entry.Names(ix, found))
	}
	res := ix.Item(found[0])
	fieldText := s.fieldText()
	secret = sec.of(res)
	vals, err := get(res.YNode(), s.path, embedded.Options{Cache: cache, Secret: secret, Format: s.source.Options.format()})
	if err != nil {
		return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "%v", err)
	}
	if len(vals) != 1 {
		return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "leads to %d values; a source must name one", len(vals))
	}
	v := vals[0]
	if isEmpty(v) {
		return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "the value is empty (%s)", emptyKind(v))
	}
	if o := s.source.Options; o != nil && o.Delimiter != "" {
		if v.Kind != yaml.ScalarNode {
			return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "options.delimiter needs a scalar, found %s", yamltree.Describe(v))
		}
		parts := strings.Split(v.Value, o.Delimiter)
		if o.Index < 0 || o.Index >= len(parts) {
			return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "options.index %d is out of range: %s split on %q has %d parts",
				o.Index, showValue(v.Value, secret), o.Delimiter, len(parts))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: parts[o.Index]}, secret, nil
	}
	// The copy expands aliases, within the run's budget: an alias bomb in
	// the source is an error, not gigabytes.
	c, err := smp.CopyExpanded(v, b)
	if err != nil {
		return nil, secret, fnrun.Errorf(s.entry, res, fieldText, "%v", err)
	}
	return c, secret, nil
}

// apply writes value into every field path of every resource the target
// selects. A selection that finds nothing is a warning, and so is a path
// whose matchers kustomize would read as selecting more.
// A secret value makes each resource it is written into secret too. Each
// place written is charged to b.
func (t *targetRule) apply(ix *selector.Index, value *yaml.Node, secret bool, cache *embedded.Cache, sec secrecy, b *budget.Budget, w *entry.Watch) (warns, errs framework.Results) {
	selected := t.set.Select(ix)
	if len(selected) == 0 {
		return framework.Results{fnrun.Warningf(t.entry, nil, "", "%s; nothing replaced", t.set.Explain(ix, "select"))}, nil
	}
	for _, i := range selected {
		res := ix.Item(i)
		step := w.Before(t.entry, res)
		if secret || sec.of(res) {
			step.Secret()
		}
		before := fnrun.Fingerprint(res)
		for _, fp := range t.paths {
			s := &setter{path: fp.path, create: t.options.Create, format: t.options.format(), set: t.setterFor(value, b), cache: cache, secret: secret || sec.of(res), step: step}
			if secret {
				sec[res.YNode()] = true
			}
			if err := s.apply(res.YNode()); err != nil {
				msg := err.Error()
				if res.GetKind() == "Secret" && fp.path[0].Key == "data" && len(fp.path) > 2 {
					msg += " (a Secret's data is base64-encoded; edit stringData instead)"
				}
				errs = append(errs, fnrun.Errorf(t.entry, res, fp.text, "%s", msg))
			} else if w := s.unanchoredWarning(); w != "" {
				warns = append(warns, fnrun.Warningf(t.entry, res, fp.text, "%s", w))
			}
		}
		if t.touchesIdentity {
			ix.Refresh(i)
		}
		if fnrun.Changed(before, res) {
			step.Done()
		}
	}
	return warns, errs
}

// setterFor returns what computes the value written at each place: the
// replacement's value, or with a delimiter, the old value with one part
// replaced (index < 0 prepends, index past the end appends). Each value
// written is charged to b: a value copied into every place a wildcard
// reaches, and copies of those copied on, multiply.
func (t *targetRule) setterFor(value *yaml.Node, b *budget.Budget) embedded.Setter {
	o := t.options
	if o.Delimiter == "" {
		return func(*yaml.Node) (*yaml.Node, error) { return value, b.Tree(value) }
	}
	return func(old *yaml.Node) (*yaml.Node, error) {
		if err := b.Tree(value); err != nil {
			return nil, err
		}
		if value.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("options.delimiter needs a scalar value, the source gives %s", yamltree.Describe(value))
		}
		oldText := ""
		if old != nil {
			if old.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("options.delimiter needs a scalar to split, found %s", yamltree.Describe(old))
			}
			oldText = old.Value
		}
		parts := strings.Split(oldText, o.Delimiter)
		switch {
		case o.Index < 0:
			parts = append([]string{value.Value}, parts...)
		case o.Index >= len(parts):
			parts = append(parts, value.Value)
		default:
			parts[o.Index] = value.Value
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.Join(parts, o.Delimiter)}, nil
	}
}

func describeSource(s *Source) string {
	return selector.Selector{Group: s.Group, Version: s.Version, Kind: s.Kind, Name: s.Name, Namespace: s.Namespace}.String()
}

// isEmpty is kustomize's test for a source value that is not there: null,
// or an empty map or list.
func isEmpty(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.ScalarNode:
		return yamltree.IsNull(v)
	case yaml.MappingNode, yaml.SequenceNode:
		return len(v.Content) == 0
	}
	return false
}

// emptyKind says which empty value isEmpty found.
func emptyKind(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "an empty map"
	case yaml.SequenceNode:
		return "an empty list"
	}
	return "null"
}
