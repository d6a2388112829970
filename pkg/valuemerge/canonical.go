package valuemerge

import (
	"encoding/json"
	"strconv"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
	yaml "go.yaml.in/yaml/v3"
)

// canonical copies a value with its numbers, booleans and nulls spelled
// as JSON spells them: YAML reads 000, 0x1F, 1_000, True and ~ as a number,
// a boolean or null, but package embedded keeps a given type only for text
// that reads as that type everywhere, and would write "000" as a string.
// The value stays the same; its spelling is the plain one.
func canonical(n *yaml.Node) *yaml.Node {
	c := *n
	if n.Kind == yaml.ScalarNode {
		c.Value = canonicalScalar(n)
		return &c
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				c.Content[i] = k // a key is its text, whatever it reads as
				continue
			}
			c.Content[i] = canonical(k)
		}
	}
	return &c
}

func canonicalScalar(n *yaml.Node) string {
	switch n.ShortTag() {
	case "!!null":
		return "null"
	case "!!bool":
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return strconv.FormatBool(b)
		}
	case "!!int", "!!float":
		return canonicalNumber(n)
	}
	return n.Value
}

// canonicalNumber is a number as JSON spells it; its text where JSON has
// no spelling for it (.inf, .nan).
func canonicalNumber(n *yaml.Node) string {
	if json.Valid([]byte(n.Value)) {
		return n.Value
	}
	if b, err := yamljson.Encode(n, nil); err == nil && json.Valid(b) && b[0] != '"' {
		return string(b)
	}
	return n.Value
}

// sameNumber reports whether two scalars are one number spelled two ways
// (00 and 0, 1.0 and 1.00): readers take them alike, so a change writing
// one over the other changes nothing, and the text keeps its spelling.
func sameNumber(a, b *yaml.Node) bool {
	if a.Kind != yaml.ScalarNode || b.Kind != yaml.ScalarNode || a.ShortTag() != b.ShortTag() {
		return false
	}
	switch a.ShortTag() {
	case "!!int", "!!float":
	default:
		return false
	}
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return x == y
}
