package schema

import (
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// addCRDRules records where the rules of each served version of a CRD
// are: its openAPIV3Schema, read on first use (ruleReader). Like
// addCRDShapes it never fails: what it cannot read is left unchecked, and
// malformed CRDs are reported by WithCRDs.
func (s *Schema) addCRDRules(crd *yaml.Node) {
	eachServed(crd, func(k kindKey, schema *yaml.Node) { s.addRule(k, schema, nil) })
}

// rootRule is the rule of a kind whose schema reads as root: a copy (root
// may be shared through aliases) whose apiVersion and kind are strings and
// whose metadata is the built-in ObjectMeta, as the API server has them.
// nil when root says nothing.
func rootRule(root *Rule) *Rule {
	if root == nil {
		return nil
	}
	top := *root
	top.Fields = make(map[string]*Rule, len(root.Fields)+3)
	for k, f := range root.Fields {
		top.Fields[k] = f
	}
	for _, k := range []string{"apiVersion", "kind"} {
		if _, ok := top.Fields[k]; !ok {
			top.Fields[k] = &Rule{Type: "string"}
		}
	}
	top.Fields["metadata"] = objectMetaRule()
	return &top
}

// objectMetaRule is the built-in ObjectMeta's rule.
func objectMetaRule() *Rule {
	return builtinRule(kindKey{"v1", "ConfigMap"}).Fields["metadata"]
}

// ruleReader reads the rules of one CRD's schemas, or of one OpenAPI
// document's (refs: its $ref). YAML aliases can make a node appear many
// times, or inside itself: there, anything goes.
type ruleReader struct {
	memo[*Rule]
	refs *refResolver
}

func newRuleReader(refs *refResolver) ruleReader {
	return ruleReader{memo: newMemo[*Rule](), refs: refs}
}

func (r *ruleReader) read(n *yaml.Node, depth int) *Rule {
	n = yamltree.Resolve(n)
	if r.refs != nil && n != nil {
		if target, err := r.refs.resolve(n, ""); err == nil {
			n = target
		}
	}
	if n == nil || n.Kind != yaml.MappingNode || depth > maxSchemaDepth {
		return nil
	}
	rule, _ := r.once(n,
		func() (*Rule, error) { return r.convert(n, depth), nil },
		func() (*Rule, error) { return nil, nil })
	return rule
}

// convert reads one schema. anyOf, oneOf, allOf and not are left out: in
// a structural schema they only narrow what the rest allows, and a check
// that misses a problem says nothing false.
func (r *ruleReader) convert(n *yaml.Node, depth int) *Rule {
	rule := &Rule{
		Type:     scalar(field(n, "type")),
		Format:   scalar(field(n, "format")),
		Nullable: scalar(field(n, "nullable")) == "true",
		Pattern:  scalar(field(n, "pattern")),
		Open:     scalar(field(n, "x-kubernetes-preserve-unknown-fields")) == "true",
		Embedded: scalar(field(n, "x-kubernetes-embedded-resource")) == "true",
	}
	if scalar(field(n, "x-kubernetes-int-or-string")) == "true" {
		rule.Type, rule.Format = "", "int-or-string"
	}
	rule.Enum = scalars(field(n, "enum"))
	rule.Required = scalars(field(n, "required"))
	readBounds(rule, n)
	if props := field(n, "properties"); props != nil && props.Kind == yaml.MappingNode {
		rule.Fields = make(map[string]*Rule, len(props.Content)/2)
		for i := 0; i+1 < len(props.Content); i += 2 {
			rule.Fields[props.Content[i].Value] = r.read(props.Content[i+1], depth+1)
		}
	}
	switch ap := field(n, "additionalProperties"); {
	case ap != nil && ap.Kind == yaml.MappingNode:
		rule.Values = r.read(ap, depth+1)
		rule.Open = rule.Open || rule.Values == nil
	case scalar(ap) == "true":
		rule.Open = true
	}
	rule.Items = r.read(field(n, "items"), depth+1)
	return rule
}

// readBounds reads minimum, maximum and the lengths.
func readBounds(rule *Rule, n *yaml.Node) {
	rule.Minimum, rule.Maximum = number(field(n, "minimum")), number(field(n, "maximum"))
	rule.ExclusiveMinimum = scalar(field(n, "exclusiveMinimum")) == "true"
	rule.ExclusiveMaximum = scalar(field(n, "exclusiveMaximum")) == "true"
	rule.MinLength, rule.MaxLength = count(field(n, "minLength")), count(field(n, "maxLength"))
	rule.MinItems, rule.MaxItems = count(field(n, "minItems")), count(field(n, "maxItems"))
}

// scalars lists the values of a list of scalars; nil for anything else
// (an enum holding a map is left unchecked, not checked in part).
func scalars(n *yaml.Node) []string {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for _, c := range n.Content {
		if c = yamltree.Resolve(c); c == nil || c.Kind != yaml.ScalarNode {
			return nil
		}
		out = append(out, c.Value)
	}
	return out
}

func number(n *yaml.Node) *float64 {
	f, err := strconv.ParseFloat(scalar(n), 64)
	if err != nil {
		return nil
	}
	return &f
}

func count(n *yaml.Node) *int64 {
	i, err := strconv.ParseInt(scalar(n), 10, 64)
	if err != nil {
		return nil
	}
	return &i
}
