package encode

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	yaml "go.yaml.in/yaml/v3"
)

// JSONLayout is how the JSON around an insertion point is laid out, which
// new maps and lists follow.
type JSONLayout struct {
	Pretty bool
	Indent string // indentation of the line the new value starts on
	Unit   string // one step of indentation
	Colon  string // between a key and its value: ": " or ":"
	Comma  string // after a comma, in compact layout: " " or ""
	NL     string
}

// Render writes v as JSON.
func (l JSONLayout) Render(v *yaml.Node) string {
	var b strings.Builder
	l.write(&b, v, l.Indent)
	return b.String()
}

// write writes v as JSON, its inner lines (pretty) indented from indent.
func (l JSONLayout) write(b *strings.Builder, v *yaml.Node, indent string) {
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		l.writeCollection(b, v, indent)
	case yaml.AliasNode:
		if v.Alias != nil {
			l.write(b, v.Alias, indent)
			return
		}
		b.WriteString("null")
	default:
		b.WriteString(JSONScalar(scalartype.At(nil, v), v.Value))
	}
}

// writeCollection writes the map or list v as a JSON object or array.
func (l JSONLayout) writeCollection(b *strings.Builder, v *yaml.Node, indent string) {
	open, close, step := "{", "}", 2
	if v.Kind == yaml.SequenceNode {
		open, close, step = "[", "]", 1
	}
	if len(v.Content) == 0 {
		b.WriteString(open + close)
		return
	}
	b.WriteString(open)
	inner := indent + l.Unit
	for i := 0; i < len(v.Content); i += step {
		l.writeSeparator(b, i > 0, inner)
		val := v.Content[i]
		if step == 2 {
			b.WriteString(JSONQuote(v.Content[i].Value))
			b.WriteString(l.Colon)
			val = v.Content[i+1]
		}
		l.write(b, val, inner)
	}
	if l.Pretty {
		b.WriteString(l.NL + indent)
	}
	b.WriteString(close)
}

// writeSeparator writes what goes before an entry: a comma after the
// first, and a line break and indentation (pretty) or the space after
// commas.
func (l JSONLayout) writeSeparator(b *strings.Builder, comma bool, inner string) {
	if comma {
		b.WriteString(",")
		if !l.Pretty {
			b.WriteString(l.Comma)
		}
	}
	if l.Pretty {
		b.WriteString(l.NL + inner)
	}
}
