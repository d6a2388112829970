package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

// value checks a value the change wrote at where against its rule r:
// deep, what is inside it too (a value added whole).
func (c *checker) value(r *schema.Rule, v *yaml.Node, where string, deep bool) {
	if c.visits++; r == nil || c.visits > treediff.MaxNodes {
		return
	}
	v = yamltree.Resolve(v)
	if v == nil || yamltree.IsNull(v) && !r.Nullable {
		return // a null is the field left out, as the API server reads it
	}
	if !c.typed(r, v, where) {
		return
	}
	switch v.Kind {
	case yaml.ScalarNode:
		c.scalar(r, v, where)
	case yaml.MappingNode:
		if deep {
			c.object(r, v, where)
		}
	case yaml.SequenceNode:
		c.count(r, len(v.Content), where)
		if deep {
			for i, el := range v.Content {
				c.value(r.Items, el, treediff.WhereElement(where, el, i), true)
			}
		}
	}
}

// typed checks the type of v, false when it is not the one wanted (and
// nothing more is to be said).
func (c *checker) typed(r *schema.Rule, v *yaml.Node, where string) bool {
	want, ok := typeWanted(r, v)
	if !ok {
		c.report(Type, where, want, c.got(v))
	}
	return ok
}

// typeWanted is what r wants, in words, and whether v is of that type.
func typeWanted(r *schema.Rule, v *yaml.Node) (string, bool) {
	tag := ""
	if v.Kind == yaml.ScalarNode {
		tag = v.ShortTag()
	}
	switch {
	case r.Format == "int-or-string":
		return "an integer or a string", tag == yaml.NodeTagInt || isString(tag)
	case r.Format == "quantity":
		return "a quantity (a number, or a string such as 500m or 1Gi)", tag == yaml.NodeTagInt || tag == yaml.NodeTagFloat || isString(tag)
	}
	switch r.Type {
	case "object":
		return "a map", v.Kind == yaml.MappingNode
	case "array":
		return "a list", v.Kind == yaml.SequenceNode
	case "string":
		return "a string", isString(tag)
	case "integer":
		return "an integer", tag == yaml.NodeTagInt
	case "number":
		return "a number", tag == yaml.NodeTagInt || tag == yaml.NodeTagFloat
	case "boolean":
		return "a boolean (true or false)", tag == yaml.NodeTagBool
	}
	return "", true
}

// isString reports whether a scalar of this tag is a string to the API
// server: a timestamp written plain is one in JSON.
func isString(tag string) bool { return tag == yaml.NodeTagString || tag == "!!timestamp" }

// scalar checks a scalar's format, enum, pattern and bounds.
func (c *checker) scalar(r *schema.Rule, v *yaml.Node, where string) {
	if want, ok := formatOK(r, v); !ok {
		c.report(Format, where, want, c.got(v))
		return
	}
	if len(r.Enum) > 0 && !slices.Contains(r.Enum, v.Value) {
		c.report(Enum, where, "one of "+strings.Join(r.Enum, ", "), c.got(v))
		return
	}
	if isString(v.ShortTag()) {
		c.text(r, v, where)
		return
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64); err == nil {
		if want, ok := inBounds(r, f); !ok {
			c.report(Bounds, where, want, c.got(v))
		}
	}
}

// text checks a string's pattern and length.
func (c *checker) text(r *schema.Rule, v *yaml.Node, where string) {
	if re := compiled(r.Pattern); re != nil && !re.MatchString(v.Value) {
		c.report(Pattern, where, "a string matching "+r.Pattern, c.got(v))
		return
	}
	n := int64(utf8.RuneCountInString(v.Value))
	switch {
	case r.MinLength != nil && n < *r.MinLength:
		c.report(Bounds, where, fmt.Sprintf("a string of at least %s", plural(*r.MinLength, "character")), c.length(v, n))
	case r.MaxLength != nil && n > *r.MaxLength:
		c.report(Bounds, where, fmt.Sprintf("a string of at most %s", plural(*r.MaxLength, "character")), c.length(v, n))
	}
}

// count checks a list's number of elements.
func (c *checker) count(r *schema.Rule, n int, where string) {
	switch k := int64(n); {
	case r.MinItems != nil && k < *r.MinItems:
		c.report(Bounds, where, "a list of at least "+plural(*r.MinItems, "element"), "a list of "+plural(k, "element"))
	case r.MaxItems != nil && k > *r.MaxItems:
		c.report(Bounds, where, "a list of at most "+plural(*r.MaxItems, "element"), "a list of "+plural(k, "element"))
	}
}

// object checks an object added whole: its required fields, fields the
// schema does not know, and each value.
func (c *checker) object(r *schema.Rule, v *yaml.Node, where string) {
	for _, req := range r.Required {
		if f := yamltree.Lookup(v, req); f == nil || yamltree.IsNull(f) {
			c.report(Required, where, "the required field "+req, "a map without it")
		}
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		key := yamltree.Resolve(v.Content[i]).Value
		at := treediff.WhereKey(where, key)
		fr, ok := r.Field(key)
		if !ok {
			if !c.o.SkipUnknown {
				c.unknown(r, key, at)
			}
			continue
		}
		c.value(fr, v.Content[i+1], at, true)
	}
}

// unknown reports a field r does not know, with the one most likely meant.
func (c *checker) unknown(r *schema.Rule, key, where string) {
	names := make([]string, 0, len(r.Fields))
	for name := range r.Fields {
		names = append(names, name)
	}
	want := "a field it knows"
	if near := suggest.Nearest(key, names); near != "" {
		want += fmt.Sprintf(" (did you mean %s?)", near)
	}
	c.report(Unknown, where, want, fmt.Sprintf("the field %q, which it does not keep", key))
}
