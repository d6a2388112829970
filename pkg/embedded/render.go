package embedded

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// Rendering of new structure: a created key with the maps and lists that
// lead to it, or a map or list copied from a replacement's source. The
// layout follows the document: indentation step, JSON pretty or compact,
// YAML block or flow, line breaks.

// jsonLayout is how the JSON around an insertion point is laid out.
type jsonLayout struct {
	pretty bool
	indent string // indentation of the line the new value starts on
	unit   string // one step of indentation
	colon  string // between a key and its value: ": " or ":"
	comma  string // after a comma, in compact layout: " " or ""
	nl     string
}

// render writes v as JSON.
func (l jsonLayout) render(v *yaml.Node) string {
	var b strings.Builder
	l.write(&b, v, l.indent)
	return b.String()
}

// write writes v as JSON, its inner lines (pretty) indented from indent.
func (l jsonLayout) write(b *strings.Builder, v *yaml.Node, indent string) {
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		open, close := "{", "}"
		step := 2
		if v.Kind == yaml.SequenceNode {
			open, close, step = "[", "]", 1
		}
		if len(v.Content) == 0 {
			b.WriteString(open + close)
			return
		}
		b.WriteString(open)
		inner := indent + l.unit
		for i := 0; i < len(v.Content); i += step {
			if i > 0 {
				b.WriteString(",")
				if !l.pretty {
					b.WriteString(l.comma)
				}
			}
			if l.pretty {
				b.WriteString(l.nl + inner)
			}
			val := v.Content[i]
			if step == 2 {
				b.WriteString(jsonQuote(v.Content[i].Value))
				b.WriteString(l.colon)
				val = v.Content[i+1]
			}
			l.write(b, val, inner)
		}
		if l.pretty {
			b.WriteString(l.nl + indent)
		}
		b.WriteString(close)
	case yaml.AliasNode:
		if v.Alias != nil {
			l.write(b, v.Alias, indent)
			return
		}
		b.WriteString("null")
	default:
		b.WriteString(jsonScalar(scalarTag(nil, v), v.Value))
	}
}

// yamlLayout is how the YAML around an insertion point is laid out.
type yamlLayout struct {
	unit        int
	seqIndented bool // block lists under a key are indented by unit
	nl          string
	quote       bool // double-quote new strings and keys (JSON-like YAML)
	given       bool // Options.GivenStyle: keep the style of the nodes given
	// keyQuote is how the document quotes every key (span.Double,
	// span.Single), which new keys follow, or span.Plain: as needed.
	keyQuote span.Style
}

// keepFlow reports whether v is a map or list to write in flow style, as
// it was given.
func (l yamlLayout) keepFlow(v *yaml.Node) bool {
	return l.given && v.Style&yaml.FlowStyle != 0 && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode)
}

// key writes a new map key, in the document's key quoting.
func (l yamlLayout) key(k string, inFlow bool) string {
	if l.quote || l.keyQuote == span.Double {
		return yamlDoubleQuote(k)
	}
	if l.keyQuote == span.Single {
		if s, ok := yamlSingleQuote(k); ok {
			return s
		}
		return yamlDoubleQuote(k)
	}
	return yamlKey(k, inFlow)
}

// str writes the scalar v as a new value (in a flow collection when
// inFlow).
func (l yamlLayout) str(v *yaml.Node, inFlow bool) string {
	tag := scalarTag(nil, v)
	if l.quote && tag == span.StrTag {
		return yamlDoubleQuote(v.Value)
	}
	if l.given && tag == span.StrTag {
		if s, ok := givenQuote(v, inFlow); ok {
			return s
		}
	}
	return yamlScalar(tag, v.Value, nil, inFlow, l.nl)
}

// flow renders v in flow style ({a: 1, b: [x]}), for flow collections.
func (l yamlLayout) flow(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		parts := make([]string, 0, len(v.Content)/2)
		for i := 0; i+1 < len(v.Content); i += 2 {
			parts = append(parts, l.key(v.Content[i].Value, true)+": "+l.flow(v.Content[i+1]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case yaml.SequenceNode:
		parts := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			parts = append(parts, l.flow(c))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yaml.AliasNode:
		if v.Alias != nil {
			return l.flow(v.Alias)
		}
		return "null"
	}
	return l.str(v, true)
}

// afterKey renders v as the value of a block map entry whose key sits at
// column keyCol: " scalar", or a line break and the indented block.
func (l yamlLayout) afterKey(v *yaml.Node, keyCol int) string {
	if l.keepFlow(v) {
		return " " + l.flow(v)
	}
	switch v.Kind {
	case yaml.MappingNode:
		if len(v.Content) == 0 {
			return " {}"
		}
		col := keyCol + l.unit
		return l.nl + spaces(col) + l.block(v, col)
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			return " []"
		}
		col := keyCol
		if l.seqIndented {
			col += l.unit
		}
		return l.nl + spaces(col) + l.block(v, col)
	}
	return " " + l.scalar(v)
}

// afterDash renders v as a block list element after "-" at column dashCol.
func (l yamlLayout) afterDash(v *yaml.Node, dashCol int) string {
	if l.keepFlow(v) {
		return " " + l.flow(v)
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if len(v.Content) == 0 {
			return " " + l.flow(v)
		}
		return " " + l.block(v, dashCol+2)
	}
	return " " + l.scalar(v)
}

// block renders a non-empty map or list whose first line continues the
// current line at column col and whose other lines start at col.
func (l yamlLayout) block(v *yaml.Node, col int) string {
	var b strings.Builder
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			if i > 0 {
				b.WriteString(l.nl + spaces(col))
			}
			b.WriteString(l.key(v.Content[i].Value, false) + ":")
			b.WriteString(l.afterKey(v.Content[i+1], col))
		}
	case yaml.SequenceNode:
		for i, c := range v.Content {
			if i > 0 {
				b.WriteString(l.nl + spaces(col))
			}
			b.WriteString("-")
			b.WriteString(l.afterDash(c, col))
		}
	default:
		b.WriteString(l.scalar(v))
	}
	return b.String()
}

// scalar writes a scalar, or what an alias stands for, in block context.
func (l yamlLayout) scalar(v *yaml.Node) string {
	if v.Kind == yaml.AliasNode {
		if v.Alias != nil {
			return l.flow(v.Alias)
		}
		return "null"
	}
	return l.str(v, false)
}

// spaces is n spaces (none for n < 0).
func spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }
