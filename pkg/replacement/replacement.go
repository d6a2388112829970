package replacement

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the structured-replacement function.
var Function = fnrun.Function{
	Name:  "structured-replacement",
	Short: "kustomize replacements whose field paths reach into JSON and YAML held in strings, editing only the bytes replaced",
	Kinds: []string{
		"fn.patchwork.dev/v1alpha1/StructuredReplacement",
		"builtin/ReplacementTransformer",
		"fn.kpt.dev/v1alpha1/ApplyReplacements",
	},
	Run: transform,
}

// transform applies the replacements of req.Config to req.Items, in order: each
// replacement sees the result of those before it.
func transform(req *fnrun.Request) error {
	var cfg Config
	if err := fnrun.Decode(req.Config, &cfg); err != nil {
		return err
	}
	rules, err := compile(&cfg, req)
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
	for _, r := range rules {
		value, secret, res := r.value(ix, cache, sec)
		if res != nil {
			errs = append(errs, res)
			continue
		}
		if secret {
			// a piece of a Secret's value (split off, or found inside
			// YAML it holds) is secret too: no result may show it
			req.Secret(scalarValues(value)...)
		}
		changed := map[int]bool{}
		for _, t := range r.targets {
			selected := t.set.Select(ix)
			before := make([]uint64, len(selected))
			for k, i := range selected {
				before[k] = fnrun.Fingerprint(ix.Item(i))
			}
			warn, tErrs := t.apply(ix, value, secret, cache, sec)
			for k, i := range selected {
				if fnrun.Changed(before[k], ix.Item(i)) {
					changed[i] = true
				}
			}
			if warn != nil {
				req.Results = append(req.Results, warn)
			}
			errs = append(errs, tErrs...)
		}
		req.Summarize(r.entry, "%s changed", fnrun.Plural(len(changed), "resource"))
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
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

// value reads the replacement's value: the sourceValue, or the field of
// the one resource the source selects. secret is set when the value comes
// from a resource whose values are secret.
func (r *rule) value(ix *selector.Index, cache *embedded.Cache, sec secrecy) (value *yaml.Node, secret bool, _ *framework.Result) {
	if r.sourceValue != nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: r.sourceValue.Tag, Value: r.sourceValue.Value}, false, nil
	}
	found := r.sourceSet.Select(ix)
	switch len(found) {
	case 0:
		return nil, false, fnrun.Errorf(r.entry+".source", nil, "", "%s matches no resource%s", describeSource(r.source), r.sourceSet.NearMisses(ix))
	case 1:
	default:
		var names []string
		for k, i := range found {
			if k == 5 {
				names = append(names, fmt.Sprintf("and %d more", len(found)-5))
				break
			}
			names = append(names, fnrun.Describe(ix.Item(i)))
		}
		return nil, false, fnrun.Errorf(r.entry+".source", nil, "", "%s matches %d resources (%s); a source must select exactly one",
			describeSource(r.source), len(found), strings.Join(names, ", "))
	}
	res := ix.Item(found[0])
	fieldText := r.source.FieldPath
	if fieldText == "" {
		fieldText = DefaultFieldPath
	}
	secret = sec.of(res)
	vals, err := get(res.YNode(), r.sourcePath, embedded.Options{Cache: cache, Secret: secret, Format: r.source.Options.format()})
	if err != nil {
		return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "%v", err)
	}
	if len(vals) != 1 {
		return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "leads to %d values; a source must name one", len(vals))
	}
	v := vals[0]
	if isEmpty(v) {
		return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "the value is empty (%s)", emptyKind(v))
	}
	if o := r.source.Options; o != nil && o.Delimiter != "" {
		if v.Kind != yaml.ScalarNode {
			return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "options.delimiter needs a scalar, found a %s", kindName(v))
		}
		parts := strings.Split(v.Value, o.Delimiter)
		if o.Index < 0 || o.Index >= len(parts) {
			return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "options.index %d is out of range: %s split on %q has %d parts",
				o.Index, showValue(v.Value, secret), o.Delimiter, len(parts))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: parts[o.Index]}, secret, nil
	}
	// The copy expands aliases, within the budget strategic merges have:
	// an alias bomb in the source is an error, not gigabytes.
	c, err := smp.CopyExpanded(v)
	if err != nil {
		return nil, secret, fnrun.Errorf(r.entry+".source", res, fieldText, "%v", err)
	}
	return c, secret, nil
}

// apply writes value into every field path of every resource the target
// selects. A selection that finds nothing is a warning.
// A secret value makes each resource it is written into secret too.
func (t *targetRule) apply(ix *selector.Index, value *yaml.Node, secret bool, cache *embedded.Cache, sec secrecy) (*framework.Result, framework.Results) {
	selected := t.set.Select(ix)
	if len(selected) == 0 {
		return fnrun.Warningf(t.entry, nil, "", "%s; nothing replaced", t.set.Explain(ix, "select")), nil
	}
	var errs framework.Results
	for _, i := range selected {
		res := ix.Item(i)
		for _, fp := range t.paths {
			s := &setter{path: fp.path, create: t.options.Create, format: t.options.format(), set: t.setterFor(value), cache: cache, secret: secret || sec.of(res)}
			if secret {
				sec[res.YNode()] = true
			}
			if err := s.apply(res.YNode()); err != nil {
				msg := err.Error()
				if res.GetKind() == "Secret" && fp.path[0].Key == "data" && len(fp.path) > 2 {
					msg += " (a Secret's data is base64-encoded; edit stringData instead)"
				}
				errs = append(errs, fnrun.Errorf(t.entry, res, fp.text, "%s", msg))
			}
		}
		if t.touchesIdentity {
			ix.Refresh(i)
		}
	}
	return nil, errs
}

// setterFor returns what computes the value written at each place: the
// replacement's value, or with a delimiter, the old value with one part
// replaced (index < 0 prepends, index past the end appends).
func (t *targetRule) setterFor(value *yaml.Node) embedded.Setter {
	o := t.options
	if o.Delimiter == "" {
		return func(*yaml.Node) (*yaml.Node, error) { return value, nil }
	}
	return func(old *yaml.Node) (*yaml.Node, error) {
		if value.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("options.delimiter needs a scalar value, the source gives a %s", kindName(value))
		}
		oldText := ""
		if old != nil {
			if old.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("options.delimiter needs a scalar to split, found a %s", kindName(old))
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
		return v.ShortTag() == "!!null"
	case yaml.MappingNode, yaml.SequenceNode:
		return len(v.Content) == 0
	}
	return false
}

func emptyKind(v *yaml.Node) string {
	if v.Kind == yaml.ScalarNode {
		return "null"
	}
	return "an empty " + kindName(v)
}

func kindName(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "map"
	case yaml.SequenceNode:
		return "list"
	}
	return "scalar"
}
