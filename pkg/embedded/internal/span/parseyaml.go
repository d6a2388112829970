package span

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// ParseYAML parses the first document of text with yaml.v3 and computes the
// byte span of every node. yaml.v3 reports where a node starts (line and
// column, counted in characters) but not where it ends, so ends are found
// by reading the text the way the node's style dictates. Package embedded
// verifies every edit by parsing its result again, so a span computed
// wrongly turns into an error, never into a damaged document.
func ParseYAML(text string) (*Tree, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var dn yaml.Node
	if err := dec.Decode(&dn); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlSyntaxError(text, err)
	}
	t := &Tree{Text: text, Format: YAML, yamlBreaks: true, lines: LineStarts(text, true), Newline: detectNewline(text)}
	t.TailBroken = brokenTail(dec)
	if dn.Kind == 0 || len(dn.Content) == 0 {
		return nil, t.errorAt(0, "empty YAML document")
	}
	c := &yamlConverter{t: t, byYAML: map[*yaml.Node]*Node{}}
	root, err := c.convert(dn.Content[0], -1, false)
	if err != nil {
		return nil, err
	}
	t.Root = root
	t.Unit = c.unit
	if t.Unit <= 0 {
		t.Unit = 2
	}
	t.byYAML = c.byYAML
	t.SeqIndented = c.seqIndented
	return t, nil
}

// brokenTail reports whether the documents after the first, if any, do not
// parse: an edit of the first must not make them so.
func brokenTail(dec *yaml.Decoder) bool {
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return false
		}
		if err != nil {
			return true
		}
	}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlSyntaxError makes a SyntaxError of yaml.v3's error, at the line it
// names.
func yamlSyntaxError(text string, err error) error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		lines := LineStarts(text, true)
		off := 0
		if line >= 1 && line <= len(lines) {
			off = lines[line-1]
		}
		return &SyntaxError{Msg: m[2], text: text, yamlBreaks: true, offset: off, lineOnly: true}
	}
	return &SyntaxError{Msg: strings.TrimPrefix(msg, "yaml: "), offset: -1}
}

// yamlConverter builds the span tree of a document from yaml.v3's nodes.
type yamlConverter struct {
	t      *Tree
	byYAML map[*yaml.Node]*Node
	// unit is the first indentation step seen between a block collection and
	// a block collection inside it; new lines use it.
	unit int
	// seqIndented records whether block lists under a key are indented
	// ("key:\n  - a") or not ("key:\n- a"); 0 unknown, 1 yes, -1 no.
	seqIndented int
}

// offset converts yaml.v3's 1-based line and character column to a byte
// offset.
func (c *yamlConverter) offset(line, col int) (int, error) {
	t := c.t
	if line < 1 || line > len(t.lines) {
		return 0, fmt.Errorf("position line %d is outside the text", line)
	}
	off := t.lines[line-1]
	if line == 1 && strings.HasPrefix(t.Text, "\uFEFF") {
		off += len("\uFEFF") // yaml.v3 does not count a byte order mark
	}
	for i := 1; i < col; i++ {
		if off >= len(t.Text) {
			return 0, fmt.Errorf("position line %d column %d is outside the text", line, col)
		}
		_, size := utf8.DecodeRuneInString(t.Text[off:])
		off += size
	}
	return off, nil
}

// convert builds the node of yn, whose block (if any) is indented by
// parentIndent, and its children.
func (c *yamlConverter) convert(yn *yaml.Node, parentIndent int, inFlow bool) (*Node, error) {
	start, err := c.offset(yn.Line, yn.Column)
	if err != nil {
		return nil, err
	}
	n := &Node{InFlow: inFlow, ExplicitTag: yn.Style&yaml.TaggedStyle != 0, YAMLInfo: &YAMLInfo{Source: yn, ParentIndent: parentIndent}}
	c.byYAML[yn] = n
	n.PropStart = start
	n.Start = c.valueStart(yn, n.ExplicitTag, start)
	if err := c.span(n, yn, parentIndent, inFlow); err != nil {
		return nil, err
	}
	return n, nil
}

// valueStart is where the value of yn starts, after the properties
// (anchor, tag) that start at start, if any.
func (c *yamlConverter) valueStart(yn *yaml.Node, explicitTag bool, start int) int {
	// yaml.v3 resolves a bare non-specific tag on an empty value ("key: !")
	// to !!null and forgets it was there: its bytes are the value's all
	// the same.
	bareTag := yn.Kind == yaml.ScalarNode && yn.Value == "" && start < len(c.t.Text) && c.t.Text[start] == '!'
	if yn.Anchor == "" && !explicitTag && !bareTag {
		return start
	}
	if yn.Kind == yaml.ScalarNode && yn.Value == "" && yn.Style&^yaml.TaggedStyle == 0 {
		// An empty value after its properties ("key: !t"): its place
		// is right after them, not at the next token, which may be
		// on a later line.
		return c.skipPropertyTokens(start)
	}
	return c.skipProperties(start)
}

// span spans the value of n, read from yn, by its kind.
func (c *yamlConverter) span(n *Node, yn *yaml.Node, parentIndent int, inFlow bool) error {
	switch yn.Kind {
	case yaml.AliasNode:
		n.Kind = Alias
		n.End = n.Start + 1 + len(yn.Value)
		return c.check(n, "*"+yn.Value)
	case yaml.ScalarNode:
		return c.scalar(n, yn)
	case yaml.MappingNode:
		n.Kind = Map
		return c.collection(n, yn, parentIndent, inFlow)
	case yaml.SequenceNode:
		n.Kind = Seq
		return c.collection(n, yn, parentIndent, inFlow)
	}
	return fmt.Errorf("unexpected YAML node kind %d", yn.Kind)
}

// check confirms that the text at n's span reads want.
func (c *yamlConverter) check(n *Node, want string) error {
	if n.End > len(c.t.Text) || c.t.Text[n.Start:n.End] != want {
		return c.t.errorAt(n.Start, fmt.Sprintf("cannot locate %q in the text", want))
	}
	return nil
}

// skipProperties moves past an anchor (&a) and a tag (!t) before a value,
// and past the spaces, line breaks and comments after them.
func (c *yamlConverter) skipProperties(i int) int {
	t := c.t.Text
	for propertyAt(t, i) {
		i = SkipSpaceAndComments(t, propertyEnd(t, i))
	}
	return i
}

// skipPropertyTokens moves past the anchor and tag before a value and the
// spaces between them, staying on their line.
func (c *yamlConverter) skipPropertyTokens(i int) int {
	t := c.t.Text
	end := i
	for propertyAt(t, i) {
		i = propertyEnd(t, i)
		end = i
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
	}
	return end
}

// propertyAt reports whether an anchor (&) or a tag (!) starts at i.
func propertyAt(t string, i int) bool {
	return i < len(t) && (t[i] == '&' || t[i] == '!')
}

// propertyEnd is where the anchor or tag starting at i ends: at white
// space or a flow indicator.
func propertyEnd(t string, i int) int {
	for i < len(t) && !IsSpace(t[i]) && !strings.ContainsRune(",[]{}", rune(t[i])) {
		i++
	}
	return i
}

// scalar spans a scalar by its style.
func (c *yamlConverter) scalar(n *Node, yn *yaml.Node) error {
	n.Kind = Scalar
	n.Value = yn.Value
	n.Tag = yn.ShortTag()
	switch {
	case yn.Style&yaml.DoubleQuotedStyle != 0:
		n.Style = Double
		return c.quoted(n, '"', "double-quoted")
	case yn.Style&yaml.SingleQuotedStyle != 0:
		n.Style = Single
		return c.quoted(n, '\'', "single-quoted")
	case yn.Style&yaml.FoldedStyle != 0:
		n.Style = Folded
		return c.blockScalar(n)
	case yn.Style&yaml.LiteralStyle != 0:
		n.Style = Literal
		return c.blockScalar(n)
	}
	n.Style = Plain
	return c.plain(n)
}

// quoted spans a scalar quoted by q ("what" names the style for the
// message).
func (c *yamlConverter) quoted(n *Node, q byte, what string) error {
	end, ok := quotedEnd(c.t.Text, n.Start, q)
	if !ok {
		return c.t.errorAt(n.Start, "cannot find the end of a "+what+" string")
	}
	n.End = end
	return nil
}

// plain spans a plain scalar.
func (c *yamlConverter) plain(n *Node) error {
	if n.Value == "" {
		// An empty value ("key:" or "- "): yaml.v3 places it where the
		// next token starts or the previous one ended; nothing to span.
		n.End = n.Start
		return nil
	}
	end, ok := plainEnd(c.t.Text, n.Start, n.Value)
	if !ok {
		return c.t.errorAt(n.Start, "cannot locate a plain value in the text")
	}
	n.End = end
	return nil
}

// quotedEnd returns the offset just after the quoted scalar starting at i.
func quotedEnd(t string, i int, q byte) (int, bool) {
	if i >= len(t) || t[i] != q {
		return 0, false
	}
	if q == '"' {
		return doubleQuotedEnd(t, i+1)
	}
	return singleQuotedEnd(t, i+1)
}

// doubleQuotedEnd returns the offset after the closing quote of a
// double-quoted scalar whose text starts at j: a backslash escapes the
// character after it.
func doubleQuotedEnd(t string, j int) (int, bool) {
	for ; j < len(t); j++ {
		switch t[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// singleQuotedEnd returns the offset after the closing quote of a
// single-quoted scalar whose text starts at j: two quotes are one quote of
// the text.
func singleQuotedEnd(t string, j int) (int, bool) {
	for ; j < len(t); j++ {
		if t[j] != '\'' {
			continue
		}
		if j+1 < len(t) && t[j+1] == '\'' {
			j++
			continue
		}
		return j + 1, true
	}
	return 0, false
}

// plainEnd finds the end of a plain scalar by reading its value off the
// text: characters match one for one, and a run of white space in the value
// (a folded line break, or spaces) matches a run of white space and line
// breaks in the text.
func plainEnd(t string, i int, value string) (int, bool) {
	for v := 0; v < len(value); {
		if IsSpace(value[v]) {
			if i >= len(t) || !IsSpace(t[i]) {
				return 0, false
			}
			i, v = skipSpace(t, i), skipSpace(value, v)
			continue
		}
		if i >= len(t) || t[i] != value[v] {
			return 0, false
		}
		i++
		v++
	}
	return i, true
}

// skipSpace moves past white space and line breaks.
func skipSpace(s string, i int) int {
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}

// blockScalar spans a literal (|) or folded (>) scalar: from its indicator
// to the end of its last non-blank content line.
func (c *yamlConverter) blockScalar(n *Node) error {
	indicator, lineEnd, err := c.blockHeader(n)
	if err != nil {
		return err
	}
	contentIndent := -1
	if indicator > 0 {
		contentIndent = max(n.ParentIndent, 0) + indicator
	}
	n.End = n.HeaderEnd
	n.BlockIndent = c.blockContent(n, c.t.LineOf(lineEnd)+1, contentIndent)
	return nil
}

// blockHeader reads a block scalar's header line: the indicator (| or >),
// chomping and the indentation indicator, which it returns (0 when there
// is none), then the rest of the line (spaces, a comment), which is not
// content. end is where the line ends.
func (c *yamlConverter) blockHeader(n *Node) (indicator, end int, err error) {
	t := c.t.Text
	if n.Start >= len(t) || (t[n.Start] != '|' && t[n.Start] != '>') {
		return 0, 0, c.t.errorAt(n.Start, "cannot find a block scalar indicator")
	}
	indicator, n.HeaderEnd = headerIndicators(t, n.Start+1)
	end = LineEnd(t, n.HeaderEnd)
	n.HeaderRest = t[n.HeaderEnd:end]
	return indicator, end, nil
}

// headerIndicators reads the chomping (+ or -) and indentation (1 to 9)
// indicators of a block scalar's header from i on: it returns the
// indentation indicator (0 when there is none) and where they end.
func headerIndicators(t string, i int) (indicator, end int) {
	for ; i < len(t); i++ {
		switch c := t[i]; {
		case c == '+' || c == '-':
		case c >= '1' && c <= '9':
			indicator = int(c - '0')
		default:
			return indicator, i
		}
	}
	return indicator, i
}

// blockContent extends a block scalar over its content lines, from line
// first on, and returns their indentation: contentIndent when the header
// gave it (> 0), else that of the first line with text. A line with text
// indented less ends the content; blank lines do not, but they are only
// the content's when text follows them.
func (c *yamlConverter) blockContent(n *Node, first, contentIndent int) int {
	t, lines := c.t.Text, c.t.lines
	for line := first; line < len(lines); line++ {
		ls := lines[line]
		le := LineEnd(t, ls)
		indent := leadingSpaces(t[ls:le])
		if ls+indent == le {
			continue // blank
		}
		if contentIndent < 0 {
			if indent <= n.ParentIndent {
				break
			}
			contentIndent = indent
		}
		if indent < contentIndent {
			break
		}
		n.End = le
	}
	if contentIndent < 0 {
		contentIndent = max(n.ParentIndent, 0) + 1
	}
	return contentIndent
}

// leadingSpaces counts the spaces that start line.
func leadingSpaces(line string) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i
}

// collection spans a map or list and converts its entries.
func (c *yamlConverter) collection(n *Node, yn *yaml.Node, parentIndent int, inFlow bool) error {
	n.Flow = yn.Style&yaml.FlowStyle != 0 || inFlow
	if n.Flow {
		return c.flowCollection(n, yn, parentIndent)
	}
	return c.blockCollection(n, yn, parentIndent)
}

// flowCollection spans a flow collection, from its opening bracket to its
// closing one.
func (c *yamlConverter) flowCollection(n *Node, yn *yaml.Node, parentIndent int) error {
	if err := c.flowOpen(n); err != nil {
		return err
	}
	if err := c.entries(n, yn, parentIndent); err != nil {
		return err
	}
	return c.flowClose(n)
}

// blockCollection spans a block collection, from its first key or dash to
// the end of its last value.
func (c *yamlConverter) blockCollection(n *Node, yn *yaml.Node, parentIndent int) error {
	if err := c.blockStart(n, yn, parentIndent); err != nil {
		return err
	}
	if err := c.entries(n, yn, n.Col); err != nil {
		return err
	}
	n.End = n.Start
	if k := len(n.Children); k > 0 {
		n.End = max(n.Children[k-1].End, n.Start)
	}
	return nil
}

// brackets returns the brackets of a flow collection of kind k.
func brackets(k Kind) (open, close byte) {
	if k == Seq {
		return '[', ']'
	}
	return '{', '}'
}

// flowOpen confirms that a flow collection starts at its bracket.
func (c *yamlConverter) flowOpen(n *Node) error {
	open, _ := brackets(n.Kind)
	if n.Start >= len(c.t.Text) || c.t.Text[n.Start] != open {
		return c.t.errorAt(n.Start, fmt.Sprintf("cannot find the opening %q of a flow collection", open))
	}
	return nil
}

// flowClose finds the closing bracket of a flow collection: it follows the
// last entry, after spaces, comments and maybe a trailing comma.
func (c *yamlConverter) flowClose(n *Node) error {
	t := c.t.Text
	i := SkipSpaceAndComments(t, entriesEnd(n))
	for i < len(t) && t[i] == ',' {
		i = SkipSpaceAndComments(t, i+1)
	}
	_, closer := brackets(n.Kind)
	if i >= len(t) || t[i] != closer {
		return c.t.errorAt(n.Start, fmt.Sprintf("cannot find the closing %q of a flow collection", closer))
	}
	n.CloseAt = i
	n.End = i + 1
	return nil
}

// entriesEnd is where the entries of a flow collection end: after its last
// value (or last key, when that ends later), or after its opening bracket.
func entriesEnd(n *Node) int {
	k := len(n.Children)
	if k == 0 {
		return n.Start + 1
	}
	i := n.Children[k-1].End
	if n.Kind == Map && n.Keys[k-1].End > i {
		i = n.Keys[k-1].End
	}
	return i
}

// blockStart places a block collection: the column of its keys or dashes,
// which sets the indentation step if none is known yet, and, for a map,
// its start at its first key (its position may be that of its anchor).
func (c *yamlConverter) blockStart(n *Node, yn *yaml.Node, parentIndent int) error {
	n.Col = n.Start - c.t.lines[c.t.LineOf(n.Start)]
	if n.Kind == Map && len(yn.Content) > 0 {
		kp, ls, err := c.firstKey(yn.Content[0])
		if err != nil {
			return err
		}
		n.Start = kp
		n.Col = kp - ls
	}
	if parentIndent >= 0 && n.Col > parentIndent && c.unit == 0 {
		c.unit = n.Col - parentIndent
	}
	return nil
}

// firstKey returns where the first entry of a block map starts (an
// explicit key, "? key", starts at the "?") and where its line starts.
func (c *yamlConverter) firstKey(key *yaml.Node) (start, lineStart int, err error) {
	kp, err := c.offset(key.Line, key.Column)
	if err != nil {
		return 0, 0, err
	}
	t := c.t.Text
	ls := c.t.lines[c.t.LineOf(kp)]
	if strings.TrimSpace(t[ls:kp]) == "?" {
		kp = ls + strings.IndexByte(t[ls:kp], '?')
	}
	return kp, ls, nil
}

// entries converts the keys and values of a map, or the elements of a
// list, whose block (if any) is indented by indent.
func (c *yamlConverter) entries(n *Node, yn *yaml.Node, indent int) error {
	for i, cy := range yn.Content {
		child, err := c.convert(cy, indent, n.Flow)
		if err != nil {
			return err
		}
		if n.Kind == Map && i%2 == 0 {
			n.Keys = append(n.Keys, child)
			continue
		}
		if n.Kind == Map {
			c.noteSeqIndent(n, child)
		}
		n.Children = append(n.Children, child)
	}
	return nil
}

// noteSeqIndent records, from the first block list that is the value of a
// key of block map m, whether such lists are indented.
func (c *yamlConverter) noteSeqIndent(m, v *Node) {
	if v.Kind != Seq || v.Flow || c.seqIndented != 0 {
		return
	}
	if v.Col > m.Col {
		c.seqIndented = 1
	} else {
		c.seqIndented = -1
	}
}
