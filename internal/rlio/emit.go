package rlio

import (
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// This file writes one item of the ResourceList as yaml.v3's encoder, set up
// as kyaml sets it up (indent 2, compact sequences, no line folding), writes
// it as an entry of the items sequence, for the shapes nearly every resource
// has: block mappings and sequences of printable ASCII scalars, with head
// comments on keys and entries and line comments on values.
//
// yaml.v3 turns a tree into events, queues every event of a document in one
// slice that only grows, and then writes them: most of what the writer
// allocated and a third of a run's CPU. Here the tree is written directly,
// following the emitter's own rules (same state: column, whitespace,
// indention; same choice of scalar style). Anything outside those shapes
// (anchors, aliases, explicit tags, flow collections, foot comments, tabs,
// non-ASCII text, folded scalars, long or multi-line keys) is not attempted:
// emitItem says so and the caller has yaml.v3 write that item. The
// differential tests and FuzzEmitItem hold the two to the same bytes.

// itemEmitter writes items. It is not safe for concurrent use: each writer
// goroutine has its own.
type itemEmitter struct {
	out        []byte
	column     int
	whitespace bool // the last character written was white space
	indention  bool // only indentation has been written on this line
	indent     int
	tags       scalar.Resolver
}

// emitItem appends n as an entry of a block sequence at column 0, ending
// with a line break, and reports whether it could; when it could not, the
// output is as it was.
func (e *itemEmitter) emitItem(n *yaml.Node) bool {
	start := len(e.out)
	e.column, e.whitespace, e.indention, e.indent = 0, true, true, 0
	if !e.sequenceEntry(n) {
		e.out = e.out[:start]
		return false
	}
	e.writeIndent(0) // what the next entry, or the end of the document, writes first
	return true
}

// The writing primitives, as yaml.v3's emitter has them (emitterc.go).

func (e *itemEmitter) put(c byte) {
	e.out = append(e.out, c)
	e.column++
}

func (e *itemEmitter) putBreak() {
	e.out = append(e.out, '\n')
	e.column = 0
	e.indention = true
}

func (e *itemEmitter) writeIndent(indent int) {
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace = true
}

func (e *itemEmitter) writeIndicator(ind string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, ind...)
	e.column += len(ind)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *itemEmitter) writeComment(c string) {
	breaks, pound := false, false
	for i := 0; i < len(c); i++ {
		if c[i] == '\n' {
			e.putBreak()
			breaks, pound = true, false
			continue
		}
		if breaks {
			e.writeIndent(e.indent)
		}
		if !pound {
			if c[i] != '#' {
				e.put('#')
				e.put(' ')
			}
			pound = true
		}
		e.put(c[i])
		e.indention = false
		breaks = false
	}
	if !breaks {
		e.putBreak()
	}
	e.whitespace = true
}

func (e *itemEmitter) headComment(c string) {
	if c != "" {
		e.writeIndent(e.indent)
		e.writeComment(c)
	}
}

func (e *itemEmitter) lineComment(c string, linebreak bool) {
	if c == "" {
		if linebreak {
			e.putBreak()
		}
		return
	}
	if !e.whitespace {
		e.put(' ')
	}
	e.writeComment(c)
}

// context is where a node is written: it decides indentation and which
// scalar styles are allowed.
type context int

const (
	inSequence context = iota // an entry of a block sequence
	asValue                   // the value of a block mapping
	asKey                     // a key of a block mapping
)

// increaseIndent is yaml_emitter_increase_indent_compact for block
// collections and scalars; indents here are never negative.
func (e *itemEmitter) increaseIndent(ctx context, compactSeq bool) int {
	saved := e.indent
	if ctx == inSequence {
		e.indent += 2 // the first indent inside an entry skips "- "
	} else {
		e.indent = 2 * ((e.indent + 2) / 2)
		if compactSeq {
			e.indent -= 2
		}
	}
	return saved
}

func (e *itemEmitter) sequenceEntry(n *yaml.Node) bool {
	if n.FootComment != "" || !plainComment(n.HeadComment) {
		return false
	}
	e.headComment(n.HeadComment)
	e.writeIndent(e.indent)
	e.writeIndicator("-", true, false, true)
	return e.node(n, inSequence)
}

func (e *itemEmitter) node(n *yaml.Node, ctx context) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return e.scalar(n, ctx)
	case yaml.MappingNode:
		return e.mapping(n, ctx)
	case yaml.SequenceNode:
		return e.sequence(n, ctx)
	}
	return false
}

// plainCollection reports whether n is a block collection with no anchor, no explicit tag and
// no comments of its own (those have rules of their own in the emitter).
func plainCollection(n *yaml.Node, tag string) bool {
	return n.Style == 0 && n.Anchor == "" && n.LineComment == "" && n.FootComment == "" &&
		(ctxHeadOK(n)) && (n.Tag == "" || shortTag(n.Tag) == tag)
}

// ctxHeadOK reports whether a collection's head comment is written by the entry holding
// it; sequenceEntry checks it. As a mapping value it would be written
// elsewhere, so mapping() and sequence() refuse it there.
func ctxHeadOK(n *yaml.Node) bool { return plainComment(n.HeadComment) }

func (e *itemEmitter) mapping(n *yaml.Node, ctx context) bool {
	if !plainCollection(n, "!!map") || len(n.Content)%2 != 0 || (ctx != inSequence && n.HeadComment != "") {
		return false
	}
	if len(n.Content) == 0 {
		e.writeIndicator("{", true, true, false)
		e.writeIndicator("}", false, false, false)
		return true
	}
	saved := e.increaseIndent(ctx, false)
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.LineComment != "" || k.FootComment != "" || !plainComment(k.HeadComment) ||
			v.HeadComment != "" || v.FootComment != "" {
			return false
		}
		e.headComment(k.HeadComment)
		e.writeIndent(e.indent)
		if !e.scalar(k, asKey) {
			return false
		}
		e.writeIndicator(":", false, false, false)
		if !e.node(v, asValue) {
			return false
		}
	}
	e.indent = saved
	return true
}

func (e *itemEmitter) sequence(n *yaml.Node, ctx context) bool {
	if !plainCollection(n, "!!seq") || ctx == asKey || (ctx != inSequence && n.HeadComment != "") {
		return false
	}
	if len(n.Content) == 0 {
		e.writeIndicator("[", true, true, false)
		e.writeIndicator("]", false, false, false)
		return true
	}
	compact := ctx == asValue && (e.column == 0 || !e.indention)
	saved := e.increaseIndent(ctx, compact)
	for _, c := range n.Content {
		if !e.sequenceEntry(c) {
			return false
		}
	}
	e.indent = saved
	return true
}

// The scalar styles the emitter chooses between.
type scalarStyle int

const (
	plainStyle scalarStyle = iota
	singleQuoted
	doubleQuoted
	literal
)

// scalar writes a scalar as yaml.v3 would, or reports that it does not
// take it: the encoder's choice of style (requestedStyle), the emitter's
// (selectStyle), then the writing.
func (e *itemEmitter) scalar(n *yaml.Node, ctx context) bool {
	if n.Anchor != "" || !printableASCII(n.Value) || !plainComment(n.LineComment) || (ctx == asKey && n.LineComment != "") {
		return false
	}
	style, ok := e.requestedStyle(n)
	if !ok {
		return false
	}
	a := analyzeScalar(n.Value)
	simpleKey := ctx == asKey
	if simpleKey && (a.multiline || len(n.Value) > 128) {
		return false // written as "? key": not attempted
	}
	style = selectStyle(style, a, n.Value == "" && simpleKey, simpleKey)
	if style == singleQuoted && a.multiline {
		return false // line breaks in single quotes: not attempted
	}
	saved := e.increaseIndent(ctx, false)
	switch style {
	case plainStyle:
		e.writePlain(n.Value)
	case singleQuoted:
		e.writeSingleQuoted(n.Value)
	case doubleQuoted:
		e.writeDoubleQuoted(n.Value)
	case literal:
		e.literal(n.Value, n.LineComment)
		e.indent = saved
		return true
	}
	e.indent = saved
	e.lineComment(n.LineComment, false) // after the value, at the enclosing indentation
	return true
}

// requestedStyle is the encoder's part (encode.go, node): the style the
// node asks for, a tag the value implies dropped, and a string that would
// read as something else quoted. ok is false for what emitItem does not
// write (a tag that would be written, folded, flow or tagged styles).
func (e *itemEmitter) requestedStyle(n *yaml.Node) (style scalarStyle, ok bool) {
	forceQuoting := false
	if n.Tag != "" {
		if n.Style&yaml.TaggedStyle != 0 {
			return 0, false
		}
		stag := shortTag(n.Tag)
		if !(stag == "!!str" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0) {
			rtag, ok := e.resolve(n.Value)
			switch {
			case !ok:
				return 0, false
			case rtag == stag:
			case stag == "!!str":
				forceQuoting = true
			default:
				return 0, false // the tag would be written
			}
		}
	}
	switch {
	case n.Style&^(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle) != 0:
		return 0, false // folded, flow, tagged: not attempted
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return doubleQuoted, true
	case n.Style&yaml.SingleQuotedStyle != 0:
		return singleQuoted, true
	case n.Style&yaml.LiteralStyle != 0, strings.IndexByte(n.Value, '\n') >= 0:
		return literal, true
	case forceQuoting:
		return doubleQuoted, true
	}
	return plainStyle, true
}

// selectStyle is the emitter's part (emitterc.go, select_scalar_style):
// the style falls back to one the value allows.
func selectStyle(style scalarStyle, a scalarAnalysis, emptyKey, simpleKey bool) scalarStyle {
	if style == plainStyle && (!a.blockPlainAllowed || emptyKey) {
		style = singleQuoted
	}
	if style == singleQuoted && !a.singleQuotedAllowed {
		style = doubleQuoted
	}
	if style == literal && (!a.blockAllowed || simpleKey) {
		style = doubleQuoted
	}
	return style
}

func (e *itemEmitter) writePlain(v string) {
	if v != "" && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, v...)
	e.column += len(v)
	if v != "" {
		e.whitespace = false
	}
	e.indention = false
}

func (e *itemEmitter) writeSingleQuoted(v string) {
	e.writeIndicator("'", true, false, false)
	for i := 0; i < len(v); i++ {
		if v[i] == '\'' {
			e.put('\'')
		}
		e.put(v[i])
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace, e.indention = false, false
}

func (e *itemEmitter) writeDoubleQuoted(v string) {
	e.writeIndicator("\"", true, false, false)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\':
			e.put('\\')
			e.put(c)
		case '\n':
			e.put('\\')
			e.put('n')
		default:
			e.put(c)
		}
	}
	e.writeIndicator("\"", false, false, false)
	e.whitespace, e.indention = false, false
}

// literal writes a literal block scalar; the line comment goes on its
// header line.
func (e *itemEmitter) literal(v, comment string) {
	e.writeIndicator("|", true, false, false)
	if v[0] == ' ' || v[0] == '\n' {
		e.writeIndicator("2", false, false, false)
	}
	last := len(v) - 1
	switch {
	case v[last] != '\n':
		e.writeIndicator("-", false, false, false)
	case last == 0 || v[last-1] == '\n':
		e.writeIndicator("+", false, false, false)
	}
	e.lineComment(comment, true)
	e.whitespace = true
	breaks := true
	for i := 0; i < len(v); i++ {
		if v[i] == '\n' {
			e.putBreak()
			breaks = true
			continue
		}
		if breaks {
			e.writeIndent(e.indent)
		}
		e.put(v[i])
		e.indention = false
		breaks = false
	}
}

// scalarAnalysis is what yaml_emitter_analyze_scalar finds out, for the
// values emitItem takes (printable ASCII and line breaks).
type scalarAnalysis struct {
	multiline           bool
	blockPlainAllowed   bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

func analyzeScalar(v string) scalarAnalysis {
	if v == "" {
		return scalarAnalysis{blockPlainAllowed: true, singleQuotedAllowed: true}
	}
	blockIndicators := strings.HasPrefix(v, "---") || strings.HasPrefix(v, "...")
	var lineBreaks, leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var previousSpace, previousBreak bool
	precededByWhitespace := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		followedByWhitespace := i+1 >= len(v) || v[i+1] == ' '
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch c {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		switch c {
		case ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i == len(v)-1
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case '\n':
			lineBreaks = true
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i == len(v)-1
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = c == ' ' || c == '\n'
	}
	a := scalarAnalysis{multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators {
		a.blockPlainAllowed = false
	}
	if trailingSpace {
		a.blockAllowed = false
	}
	if breakSpace || spaceBreak {
		a.blockPlainAllowed = false
		a.singleQuotedAllowed = false
	}
	if spaceBreak {
		a.blockAllowed = false
	}
	return a
}

// printableASCII reports whether s holds only the characters emitItem writes as they are (and line
// breaks).
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c > 0x7e {
			return false
		}
	}
	return true
}

// plainComment reports whether emitItem writes comment c (printable ASCII lines).
func plainComment(c string) bool { return printableASCII(c) }

const longTagPrefix = "tag:yaml.org,2002:"

func shortTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, longTagPrefix); ok {
		return "!!" + rest
	}
	return tag
}

// resolve is the tag yaml.v3 gives v written plain: yaml.v3's own
// resolver, asked through package scalar, the project's one home for such
// rules (with its memory for number-like values, one per emitter).
func (e *itemEmitter) resolve(v string) (tag string, ok bool) {
	return e.tags.Resolve12(v), true
}
