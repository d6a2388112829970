package rlio

import (
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// This file writes one item of the ResourceList as yaml.v3's encoder, set up
// as kyaml sets it up (indent 2, compact sequences, no line folding), writes
// it as an entry of the items sequence, for the shapes nearly every resource
// has: block mappings and sequences, flow lists and maps of scalars
// (verbs: ["get"], labels: {app: x}), scalars of printable UTF-8 text, head
// comments on keys and entries and line comments on values. On the corpus
// of real manifests it writes 2,477 of 2,677 items.
//
// yaml.v3 turns a tree into events, queues every event of a document in one
// slice that only grows, and then writes them: most of what the writer
// allocated and a third of a run's CPU. Here the tree is written directly,
// following the emitter's own rules (same state: column, whitespace,
// indention; same choice of scalar style). Anything outside those shapes
// (anchors, aliases, explicit tags, nested flow collections, comments
// inside flow collections, foot comments, tabs, characters yaml.v3 escapes,
// folded scalars, long or multi-line keys) is not attempted: emitItem says
// so and the caller has yaml.v3 write that item. The differential tests and
// FuzzEmitItem hold the two to the same bytes.

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

// put writes a byte; like yaml.v3's emitter, the column counts characters,
// so a UTF-8 continuation byte does not move it.
func (e *itemEmitter) put(c byte) {
	e.out = append(e.out, c)
	if c&0xC0 != 0x80 {
		e.column++
	}
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
	inFlow                    // an entry of a flow sequence, or a flow mapping's value
	asFlowKey                 // a key of a flow mapping
)

// flow reports whether ctx is inside a flow collection.
func (c context) flow() bool { return c == inFlow || c == asFlowKey }

// simpleKey reports whether ctx is a key written without "? ".
func (c context) simpleKey() bool { return c == asKey || c == asFlowKey }

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

// plainCollection reports whether n is a collection, block or flow, with
// no anchor and no explicit tag (but tag, the one it has anyway), whose
// comments emitItem writes.
func plainCollection(n *yaml.Node, tag string, ctx context) bool {
	return (n.Style == 0 || n.Style == yaml.FlowStyle) && n.Anchor == "" && (n.Tag == "" || shortTag(n.Tag) == tag) &&
		collectionComments(n, ctx)
}

// collectionComments reports whether emitItem writes a collection's
// comments: no line or foot comment (those have rules of their own in the
// emitter), and a head comment of printable lines only where sequenceEntry
// writes it, in a sequence (as a mapping value it would be written
// elsewhere).
func collectionComments(n *yaml.Node, ctx context) bool {
	return n.LineComment == "" && n.FootComment == "" && plainComment(n.HeadComment) &&
		(ctx == inSequence || n.HeadComment == "")
}

func (e *itemEmitter) mapping(n *yaml.Node, ctx context) bool {
	if !plainCollection(n, "!!map", ctx) || len(n.Content)%2 != 0 {
		return false
	}
	switch {
	case n.Style == yaml.FlowStyle || ctx.flow():
		return e.flowMapping(n, ctx)
	case len(n.Content) == 0:
		e.emptyCollection("{", "}")
		return true
	}
	return e.blockMapping(n, ctx)
}

// blockMapping writes the entries of a block mapping, one a line.
func (e *itemEmitter) blockMapping(n *yaml.Node, ctx context) bool {
	saved := e.increaseIndent(ctx, false)
	for i := 0; i < len(n.Content); i += 2 {
		if !e.mappingEntry(n.Content[i], n.Content[i+1]) {
			return false
		}
	}
	e.indent = saved
	return true
}

// mappingEntry writes the entry k: v of a block mapping.
func (e *itemEmitter) mappingEntry(k, v *yaml.Node) bool {
	if !entryComments(k, v) {
		return false
	}
	e.headComment(k.HeadComment)
	e.writeIndent(e.indent)
	if !e.scalar(k, asKey) {
		return false
	}
	e.writeIndicator(":", false, false, false)
	return e.node(v, asValue)
}

// entryComments reports whether mappingEntry writes the entry k: v: a
// scalar key with no comments but a head comment of printable lines, and
// a value with no head or foot comment.
func entryComments(k, v *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.LineComment == "" && k.FootComment == "" && plainComment(k.HeadComment) &&
		v.HeadComment == "" && v.FootComment == ""
}

func (e *itemEmitter) sequence(n *yaml.Node, ctx context) bool {
	if !plainCollection(n, "!!seq", ctx) || ctx == asKey {
		return false
	}
	switch {
	case n.Style == yaml.FlowStyle || ctx.flow():
		return e.flowSequence(n, ctx)
	case len(n.Content) == 0:
		e.emptyCollection("[", "]")
		return true
	}
	return e.blockSequence(n, ctx)
}

// blockSequence writes the entries of a block sequence, one a line; as a
// mapping value, compact (its dashes at the key's indentation), as kyaml
// sets the encoder up.
func (e *itemEmitter) blockSequence(n *yaml.Node, ctx context) bool {
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

// emptyCollection writes an empty collection, which yaml.v3 writes in flow
// even where the node asks for a block: {} or [].
func (e *itemEmitter) emptyCollection(open, close string) {
	e.writeIndicator(open, true, true, false)
	e.writeIndicator(close, false, false, false)
}

// flowSequence writes [a, b] (yaml_emitter_emit_flow_sequence_item) for
// the lists emitItem takes in flow: entries that are scalars without
// comments, on one line (yaml.v3's encoder sets no line width, so it never
// breaks one).
func (e *itemEmitter) flowSequence(n *yaml.Node, ctx context) bool {
	return e.flowCollection(ctx, "[", "]", len(n.Content), func(i int) bool {
		return flowScalar(n.Content[i]) && e.scalar(n.Content[i], inFlow)
	})
}

// flowMapping writes {k: v, …} (yaml_emitter_emit_flow_mapping_key and
// _value) for the maps emitItem takes in flow: scalar keys (simple, at most
// 128 bytes) and scalar values, without comments.
func (e *itemEmitter) flowMapping(n *yaml.Node, ctx context) bool {
	return e.flowCollection(ctx, "{", "}", len(n.Content)/2, func(i int) bool {
		return e.flowMappingEntry(n.Content[2*i], n.Content[2*i+1])
	})
}

// flowMappingEntry writes the entry k: v of a flow mapping.
func (e *itemEmitter) flowMappingEntry(k, v *yaml.Node) bool {
	if !flowScalar(k) || !flowScalar(v) || len(k.Value) > 128 {
		return false
	}
	if !e.scalar(k, asFlowKey) {
		return false
	}
	e.writeIndicator(":", false, false, false)
	return e.scalar(v, inFlow)
}

// flowCollection writes a flow collection of count entries, each written
// by entry, between open and close and separated by commas. A flow
// collection inside another is not attempted.
func (e *itemEmitter) flowCollection(ctx context, open, close string, count int, entry func(i int) bool) bool {
	if ctx.flow() {
		return false // nested flow collections: not attempted
	}
	e.writeIndicator(open, true, true, false)
	for i := 0; i < count; i++ {
		if i > 0 {
			e.writeIndicator(",", false, false, false)
		}
		if !entry(i) {
			return false
		}
	}
	e.writeIndicator(close, false, false, false)
	return true
}

// flowScalar reports whether n is what flowSequence and flowMapping write
// inside the brackets: a scalar with no comments and no line break.
func flowScalar(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.HeadComment == "" && n.LineComment == "" && n.FootComment == "" &&
		strings.IndexByte(n.Value, '\n') < 0
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
	if !plainScalar(n, ctx) {
		return false
	}
	style, ok := e.requestedStyle(n)
	if !ok {
		return false
	}
	style, ok = scalarStyleIn(style, n.Value, ctx)
	if !ok {
		return false
	}
	e.writeScalar(n, style, ctx)
	return true
}

// plainScalar reports whether scalar may write n in ctx: no anchor, a
// printable value, a line comment of printable lines, and none on a
// simple key.
func plainScalar(n *yaml.Node, ctx context) bool {
	return n.Anchor == "" && printable(n.Value) && plainComment(n.LineComment) && !(ctx.simpleKey() && n.LineComment != "")
}

// scalarStyleIn is the style the emitter writes value in, asked for
// style, in ctx; ok is false where emitItem does not write it.
func scalarStyleIn(style scalarStyle, value string, ctx context) (scalarStyle, bool) {
	a := analyzeScalar(value, ctx.flow())
	simpleKey := ctx.simpleKey()
	if simpleKey && (a.multiline || len(value) > 128) {
		return 0, false // written as "? key": not attempted
	}
	style = selectStyle(style, a, ctx.flow(), value == "" && simpleKey, simpleKey)
	if style == singleQuoted && a.multiline {
		return 0, false // line breaks in single quotes: not attempted
	}
	return style, true
}

// writeScalar writes n in style, and its line comment.
func (e *itemEmitter) writeScalar(n *yaml.Node, style scalarStyle, ctx context) {
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
		return
	}
	e.indent = saved
	e.lineComment(n.LineComment, false) // after the value, at the enclosing indentation
}

// requestedStyle is the encoder's part (encode.go, node): the style the
// node asks for, a tag the value implies dropped, and a string that would
// read as something else quoted. ok is false for what emitItem does not
// write (a tag that would be written, folded, flow or tagged styles).
func (e *itemEmitter) requestedStyle(n *yaml.Node) (style scalarStyle, ok bool) {
	forceQuoting, ok := e.tagQuoting(n)
	if !ok {
		return 0, false
	}
	return askedStyle(n, forceQuoting)
}

// tagQuoting is what the encoder makes of a scalar's explicit tag: ok is
// false where it would write the tag (or the style is tagged), and
// forceQuoting is true for a !!str value that would read as another type
// plain.
func (e *itemEmitter) tagQuoting(n *yaml.Node) (forceQuoting, ok bool) {
	if n.Tag == "" {
		return false, true
	}
	if n.Style&yaml.TaggedStyle != 0 {
		return false, false
	}
	stag := shortTag(n.Tag)
	if stag == "!!str" && n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return false, true
	}
	rtag, ok := e.resolve(n.Value)
	switch {
	case !ok:
		return false, false
	case rtag == stag:
		return false, true
	case stag == "!!str":
		return true, true
	}
	return false, false // the tag would be written
}

// askedStyle is the style n's Style field asks for, or its value needs (a
// line break makes it literal; forceQuoting double quotes); ok is false
// for the styles emitItem does not write.
func askedStyle(n *yaml.Node, forceQuoting bool) (scalarStyle, bool) {
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
// the style falls back to one the value allows where it is written.
func selectStyle(style scalarStyle, a scalarAnalysis, flow, emptyKey, simpleKey bool) scalarStyle {
	if style == plainStyle && (!a.plainAllowed || emptyKey) {
		style = singleQuoted
	}
	if style == singleQuoted && !a.singleQuotedAllowed {
		style = doubleQuoted
	}
	if style == literal && (!a.blockAllowed || flow || simpleKey) {
		style = doubleQuoted
	}
	return style
}

func (e *itemEmitter) writePlain(v string) {
	if v != "" && !e.whitespace {
		e.put(' ')
	}
	e.out = append(e.out, v...)
	e.column += utf8.RuneCountInString(v)
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
	e.blockHints(v)
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

// blockHints writes a block scalar's indentation indicator (for a value
// starting with a space or a line break) and its chomping indicator: "-"
// without a final line break, "+" for a value ending in a blank line (or
// that is one line break).
func (e *itemEmitter) blockHints(v string) {
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
}

// scalarAnalysis is what yaml_emitter_analyze_scalar finds out, for the
// values emitItem takes (printable characters and \n) and where one is
// written (in a flow collection or not).
type scalarAnalysis struct {
	multiline           bool
	plainAllowed        bool
	singleQuotedAllowed bool
	blockAllowed        bool
}

// analyzeScalar analyzes v written in a flow collection (flow) or not.
// Whether it may be plain is the project's one rule, package scalar's
// CanBePlain, which is yaml.v3's.
func analyzeScalar(v string, flow bool) scalarAnalysis {
	a := scalarAnalysis{plainAllowed: scalar.CanBePlain(v, flow), singleQuotedAllowed: true}
	if v == "" {
		return a
	}
	sp := spacingOf(v)
	a.multiline, a.blockAllowed = sp.lineBreaks, !sp.trailingSpace && !sp.spaceBreak
	a.singleQuotedAllowed = !sp.breakSpace && !sp.spaceBreak
	return a
}

// spacing is where a value has spaces and line breaks, as far as the
// quoted and block styles care (CanBePlain answers for the plain one).
type spacing struct {
	lineBreaks, trailingSpace, breakSpace, spaceBreak bool
}

func spacingOf(v string) spacing {
	var sp spacing
	var previousSpace, previousBreak bool
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case ' ':
			sp.trailingSpace = sp.trailingSpace || i == len(v)-1
			sp.breakSpace = sp.breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case '\n':
			sp.lineBreaks = true
			sp.spaceBreak = sp.spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
	}
	return sp
}

// printable reports whether s holds only characters emitItem writes as
// they are: package scalar's Printable (yaml.v3's is_printable: no control
// characters, nothing above U+FFFF, no U+FEFF), and no line break but \n
// (\r, U+0085, U+2028 and U+2029 are breaks to YAML, which the emitter
// treats apart). Tabs are refused too, and bytes that are not UTF-8.
func printable(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c != '\n' && !scalar.Printable(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if !scalar.Printable(r) || r == utf8.RuneError && w == 1 {
			return false
		}
		i += w
	}
	return true
}

// plainComment reports whether emitItem writes comment c (printable lines).
func plainComment(c string) bool { return printable(c) }

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
