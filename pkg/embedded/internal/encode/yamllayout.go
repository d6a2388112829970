package encode

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// YAMLLayout is how the YAML around an insertion point is laid out, which
// new maps, lists and keys follow.
type YAMLLayout struct {
	Unit        int
	SeqIndented bool // block lists under a key are indented by Unit
	NL          string
	Quote       bool // double-quote new strings and keys (JSON-like YAML)
	Given       bool // Options.GivenStyle: keep the style of the nodes given
	// KeyQuote is how the document quotes every key (span.Double,
	// span.Single), which new keys follow, or span.Plain: as needed.
	KeyQuote span.Style
	// StrQuote is how the document quotes every string, which new
	// strings follow unless given quoted, or span.Plain: as needed.
	StrQuote span.Style
	// Blocks lets a new string of several lines be a literal block: the
	// text written ends a line (a block scalar would take in whatever
	// followed it there).
	Blocks bool
}

// KeepFlow reports whether v is a map or list to write in flow style, as
// it was given.
func (l YAMLLayout) KeepFlow(v *yaml.Node) bool {
	return l.Given && v.Style&yaml.FlowStyle != 0 && (v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode)
}

// Key writes a new map key, in the document's key quoting.
func (l YAMLLayout) Key(k string, inFlow bool) string {
	if l.Quote {
		return YAMLDoubleQuote(k)
	}
	if s, ok := quotedAs(l.KeyQuote, k); ok {
		return s
	}
	return YAMLKey(k, inFlow)
}

// quotedAs writes s in style, span.Double or span.Single (double-quoted
// where single quotes cannot hold it); false for span.Plain.
func quotedAs(style span.Style, s string) (string, bool) {
	switch style {
	case span.Double:
		return YAMLDoubleQuote(s), true
	case span.Single:
		if q, ok := YAMLSingleQuote(s); ok {
			return q, true
		}
		return YAMLDoubleQuote(s), true
	}
	return "", false
}

// str writes the scalar v as a new value (in a flow collection when
// inFlow).
func (l YAMLLayout) str(v *yaml.Node, inFlow bool) string {
	return l.NewScalar(scalartype.At(nil, v), v, inFlow)
}

// NewScalar writes the scalar v, of type tag, where no scalar was (in a
// flow collection when inFlow): a string double-quoted in JSON-like YAML,
// quoted as given under Given, else quoted as the document quotes every
// string, else plain where it can be.
func (l YAMLLayout) NewScalar(tag string, v *yaml.Node, inFlow bool) string {
	if tag != span.StrTag {
		return YAMLScalar(tag, v.Value, nil, inFlow, l.NL)
	}
	if l.Quote {
		return YAMLDoubleQuote(v.Value)
	}
	if l.Given && v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		if s, ok := GivenQuote(v, inFlow); ok {
			return s
		}
	}
	if s, ok := quotedAs(l.StrQuote, v.Value); ok {
		return s
	}
	if l.Given {
		if s, ok := GivenQuote(v, inFlow); ok {
			return s
		}
	}
	return YAMLScalar(tag, v.Value, nil, inFlow, l.NL)
}

// Flow renders v in flow style ({a: 1, b: [x]}), for flow collections.
func (l YAMLLayout) Flow(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		parts := make([]string, 0, len(v.Content)/2)
		for i := 0; i+1 < len(v.Content); i += 2 {
			parts = append(parts, l.Key(v.Content[i].Value, true)+": "+l.Flow(v.Content[i+1]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case yaml.SequenceNode:
		parts := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			parts = append(parts, l.Flow(c))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case yaml.AliasNode:
		if v.Alias != nil {
			return l.Flow(v.Alias)
		}
		return "null"
	}
	return l.str(v, true)
}

// AfterKey renders v as the value of a block map entry whose key sits at
// column keyCol: " scalar", or a line break and the indented block.
func (l YAMLLayout) AfterKey(v *yaml.Node, keyCol int) string {
	if l.KeepFlow(v) {
		return " " + l.Flow(v)
	}
	switch v.Kind {
	case yaml.MappingNode:
		if len(v.Content) == 0 {
			return " {}"
		}
		col := keyCol + l.Unit
		return l.NL + Spaces(col) + l.Block(v, col)
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			return " []"
		}
		col := keyCol
		if l.SeqIndented {
			col += l.Unit
		}
		return l.NL + Spaces(col) + l.Block(v, col)
	}
	if s, ok := l.newBlockScalar(v, keyCol); ok {
		return " " + s
	}
	return " " + l.scalar(v)
}

// newBlockScalar writes a new string of several lines, the value of a key
// at column keyCol, as a literal block, as YAML encoders write one (a
// double-quoted string spells every line break "\n"): only where the
// string is plain, nothing says to quote it, and the text ends a line.
func (l YAMLLayout) newBlockScalar(v *yaml.Node, keyCol int) (string, bool) {
	if !l.Blocks || l.Quote || v.Kind != yaml.ScalarNode || !strings.Contains(v.Value, "\n") ||
		v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 || l.StrQuote != span.Plain ||
		scalartype.At(nil, v) != span.StrTag {
		return "", false
	}
	return NewBlockScalar(v.Value, keyCol, l.Unit, l.NL)
}

// AfterDash renders v as a block list element after "-" at column dashCol.
func (l YAMLLayout) AfterDash(v *yaml.Node, dashCol int) string {
	if l.KeepFlow(v) {
		return " " + l.Flow(v)
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if len(v.Content) == 0 {
			return " " + l.Flow(v)
		}
		return " " + l.Block(v, dashCol+2)
	}
	return " " + l.scalar(v)
}

// Block renders a non-empty map or list whose first line continues the
// current line at column col and whose other lines start at col.
func (l YAMLLayout) Block(v *yaml.Node, col int) string {
	var b strings.Builder
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			if i > 0 {
				b.WriteString(l.NL + Spaces(col))
			}
			b.WriteString(l.Key(v.Content[i].Value, false) + ":")
			b.WriteString(l.AfterKey(v.Content[i+1], col))
		}
	case yaml.SequenceNode:
		for i, c := range v.Content {
			if i > 0 {
				b.WriteString(l.NL + Spaces(col))
			}
			b.WriteString("-")
			b.WriteString(l.AfterDash(c, col))
		}
	default:
		b.WriteString(l.scalar(v))
	}
	return b.String()
}

// scalar writes a scalar, or what an alias stands for, in block context.
func (l YAMLLayout) scalar(v *yaml.Node) string {
	if v.Kind == yaml.AliasNode {
		if v.Alias != nil {
			return l.Flow(v.Alias)
		}
		return "null"
	}
	return l.str(v, false)
}

// Spaces is n spaces (none for n < 0).
func Spaces(n int) string { return strings.Repeat(" ", max(n, 0)) }
