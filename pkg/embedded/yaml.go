package embedded

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// parseYAML parses the first document of text with yaml.v3 and computes the
// byte span of every node. yaml.v3 reports where a node starts (line and
// column, counted in characters) but not where it ends, so ends are found
// by reading the text the way the node's style dictates. The edit is
// verified by parsing its result again, so a span computed wrongly turns
// into an error, never into a damaged document.
func parseYAML(text string) (*doc, error) {
	var dn yaml.Node
	if err := yaml.Unmarshal([]byte(text), &dn); err != nil {
		return nil, yamlSyntaxError(text, err)
	}
	d := &doc{format: YAML, text: text, lines: lineStarts(text, true), newline: detectNewline(text)}
	if dn.Kind == 0 || len(dn.Content) == 0 {
		return nil, &syntaxError{format: YAML, offset: 0, msg: "empty YAML document"}
	}
	c := &yamlConverter{d: d, byYAML: map[*yaml.Node]*node{}}
	root, err := c.convert(dn.Content[0], -1, false)
	if err != nil {
		return nil, err
	}
	d.root = root
	d.unit = c.unit
	if d.unit <= 0 {
		d.unit = 2
	}
	d.byYAML = c.byYAML
	d.seqIndented = c.seqIndented
	return d, nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func yamlSyntaxError(text string, err error) error {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		lines := lineStarts(text, true)
		off := 0
		if line >= 1 && line <= len(lines) {
			off = lines[line-1]
		}
		return &syntaxError{format: YAML, offset: off, msg: m[2], lineOnly: true}
	}
	return &syntaxError{format: YAML, offset: -1, msg: strings.TrimPrefix(msg, "yaml: ")}
}

type yamlConverter struct {
	d      *doc
	byYAML map[*yaml.Node]*node
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
	d := c.d
	if line < 1 || line > len(d.lines) {
		return 0, fmt.Errorf("position line %d is outside the text", line)
	}
	off := d.lines[line-1]
	if line == 1 && strings.HasPrefix(d.text, "\uFEFF") {
		off += len("\uFEFF") // yaml.v3 does not count a byte order mark
	}
	for i := 1; i < col; i++ {
		if off >= len(d.text) {
			return 0, fmt.Errorf("position line %d column %d is outside the text", line, col)
		}
		_, size := utf8.DecodeRuneInString(d.text[off:])
		off += size
	}
	return off, nil
}

func (c *yamlConverter) convert(yn *yaml.Node, parentIndent int, inFlow bool) (*node, error) {
	start, err := c.offset(yn.Line, yn.Column)
	if err != nil {
		return nil, err
	}
	n := &node{inFlow: inFlow, explicitTag: yn.Style&yaml.TaggedStyle != 0, yamlInfo: &yamlInfo{yn: yn, parentIndent: parentIndent}}
	c.byYAML[yn] = n
	n.propStart = start
	if yn.Anchor != "" || n.explicitTag {
		if yn.Kind == yaml.ScalarNode && yn.Value == "" && yn.Style&^yaml.TaggedStyle == 0 {
			// An empty value after its properties ("key: !t"): its place
			// is right after them, not at the next token, which may be
			// on a later line.
			start = c.skipPropertyTokens(start)
		} else {
			start = c.skipProperties(start)
		}
	}
	n.start = start
	switch yn.Kind {
	case yaml.AliasNode:
		n.kind = aliasKind
		n.end = start + 1 + len(yn.Value)
		return n, c.check(n, "*"+yn.Value)
	case yaml.ScalarNode:
		return n, c.scalar(n, yn)
	case yaml.MappingNode:
		n.kind = mapKind
		return n, c.collection(n, yn, parentIndent, inFlow)
	case yaml.SequenceNode:
		n.kind = seqKind
		return n, c.collection(n, yn, parentIndent, inFlow)
	}
	return nil, fmt.Errorf("unexpected YAML node kind %d", yn.Kind)
}

// check confirms that the text at n's span reads want.
func (c *yamlConverter) check(n *node, want string) error {
	if n.end > len(c.d.text) || c.d.text[n.start:n.end] != want {
		return &syntaxError{format: YAML, offset: n.start, msg: fmt.Sprintf("cannot locate %q in the text", want)}
	}
	return nil
}

// skipProperties moves past an anchor (&a) and a tag (!t) before a value,
// and past the spaces, line breaks and comments after them.
func (c *yamlConverter) skipProperties(i int) int {
	t := c.d.text
	for i < len(t) && (t[i] == '&' || t[i] == '!') {
		for i < len(t) && !isYAMLSpace(t[i]) && !strings.ContainsRune(",[]{}", rune(t[i])) {
			i++
		}
		i = skipSpaceAndComments(t, i)
	}
	return i
}

// skipPropertyTokens moves past the anchor and tag before a value and the
// spaces between them, staying on their line.
func (c *yamlConverter) skipPropertyTokens(i int) int {
	t := c.d.text
	end := i
	for i < len(t) && (t[i] == '&' || t[i] == '!') {
		for i < len(t) && !isYAMLSpace(t[i]) && !strings.ContainsRune(",[]{}", rune(t[i])) {
			i++
		}
		end = i
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
	}
	return end
}

func isYAMLSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// skipSpaceAndComments moves past spaces, tabs, line breaks and comments.
func skipSpaceAndComments(t string, i int) int {
	for i < len(t) {
		switch {
		case isYAMLSpace(t[i]):
			i++
		case t[i] == '#':
			for i < len(t) && t[i] != '\n' && t[i] != '\r' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

func (c *yamlConverter) scalar(n *node, yn *yaml.Node) error {
	n.kind = scalarKind
	n.value = yn.Value
	n.tag = yn.ShortTag()
	t := c.d.text
	switch {
	case yn.Style&yaml.DoubleQuotedStyle != 0:
		n.style = doubleStyle
		end, ok := quotedEnd(t, n.start, '"')
		if !ok {
			return &syntaxError{format: YAML, offset: n.start, msg: "cannot find the end of a double-quoted string"}
		}
		n.end = end
	case yn.Style&yaml.SingleQuotedStyle != 0:
		n.style = singleStyle
		end, ok := quotedEnd(t, n.start, '\'')
		if !ok {
			return &syntaxError{format: YAML, offset: n.start, msg: "cannot find the end of a single-quoted string"}
		}
		n.end = end
	case yn.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		n.style = literalStyle
		if yn.Style&yaml.FoldedStyle != 0 {
			n.style = foldedStyle
		}
		return c.blockScalar(n)
	default:
		n.style = plainStyle
		if yn.Value == "" {
			// An empty value ("key:" or "- "): yaml.v3 places it where the
			// next token starts or the previous one ended; nothing to span.
			n.end = n.start
			return nil
		}
		end, ok := plainEnd(t, n.start, yn.Value)
		if !ok {
			return &syntaxError{format: YAML, offset: n.start, msg: "cannot locate a plain value in the text"}
		}
		n.end = end
	}
	return nil
}

// quotedEnd returns the offset just after the quoted scalar starting at i.
func quotedEnd(t string, i int, q byte) (int, bool) {
	if i >= len(t) || t[i] != q {
		return 0, false
	}
	for j := i + 1; j < len(t); j++ {
		switch {
		case q == '"' && t[j] == '\\':
			j++
		case t[j] == q:
			if q == '\'' && j+1 < len(t) && t[j+1] == '\'' {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return 0, false
}

// plainEnd finds the end of a plain scalar by reading its value off the
// text: characters match one for one, and a run of white space in the value
// (a folded line break, or spaces) matches a run of white space and line
// breaks in the text.
func plainEnd(t string, i int, value string) (int, bool) {
	v := 0
	for v < len(value) {
		if isYAMLSpace(value[v]) {
			for v < len(value) && isYAMLSpace(value[v]) {
				v++
			}
			if i >= len(t) || !isYAMLSpace(t[i]) {
				return 0, false
			}
			for i < len(t) && isYAMLSpace(t[i]) {
				i++
			}
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

// blockScalar spans a literal (|) or folded (>) scalar: from its indicator
// to the end of its last non-blank content line.
func (c *yamlConverter) blockScalar(n *node) error {
	t := c.d.text
	i := n.start
	if i >= len(t) || (t[i] != '|' && t[i] != '>') {
		return &syntaxError{format: YAML, offset: n.start, msg: "cannot find a block scalar indicator"}
	}
	i++
	indicator := 0
	for i < len(t) && (t[i] == '+' || t[i] == '-' || (t[i] >= '1' && t[i] <= '9')) {
		if t[i] >= '1' && t[i] <= '9' {
			indicator = int(t[i] - '0')
		}
		i++
	}
	n.headerEnd = i
	// The rest of the header line (spaces, a comment) is not content.
	for i < len(t) && t[i] != '\n' && t[i] != '\r' {
		i++
	}
	n.headerRest = t[n.headerEnd:i]
	n.end = n.headerEnd
	contentIndent := -1
	if indicator > 0 {
		contentIndent = max(n.parentIndent, 0) + indicator
	}
	lines := c.d.lines
	line := c.d.lineOf(i) + 1
	for ; line < len(lines); line++ {
		ls := lines[line]
		le := lineEnd(t, ls)
		indent := 0
		for ls+indent < le && t[ls+indent] == ' ' {
			indent++
		}
		blank := ls+indent == le
		if blank {
			continue
		}
		if contentIndent < 0 {
			if indent <= n.parentIndent {
				break
			}
			contentIndent = indent
		}
		if indent < contentIndent {
			break
		}
		n.end = le
	}
	if contentIndent < 0 {
		contentIndent = max(n.parentIndent, 0) + 1
	}
	n.blockIndent = contentIndent
	return nil
}

// lineEnd returns the offset of the line break ending the line that starts
// at ls (or the end of the text).
func lineEnd(t string, ls int) int {
	for i := ls; i < len(t); i++ {
		if t[i] == '\n' || t[i] == '\r' {
			return i
		}
	}
	return len(t)
}

func (c *yamlConverter) collection(n *node, yn *yaml.Node, parentIndent int, inFlow bool) error {
	t := c.d.text
	n.flow = yn.Style&yaml.FlowStyle != 0 || inFlow
	if n.flow {
		open := byte('{')
		if n.kind == seqKind {
			open = '['
		}
		if n.start >= len(t) || t[n.start] != open {
			return &syntaxError{format: YAML, offset: n.start, msg: fmt.Sprintf("cannot find the opening %q of a flow collection", open)}
		}
	}
	childIndent := parentIndent
	if !n.flow {
		col := n.start - c.d.lines[c.d.lineOf(n.start)]
		if n.kind == mapKind && len(yn.Content) > 0 {
			// A mapping's position may be that of its anchor; its first key
			// tells where its entries really are.
			kp, err := c.offset(yn.Content[0].Line, yn.Content[0].Column)
			if err != nil {
				return err
			}
			// An explicit first key ("? key") starts the entry at the "?".
			ls := c.d.lines[c.d.lineOf(kp)]
			if strings.TrimSpace(t[ls:kp]) == "?" {
				kp = ls + strings.IndexByte(t[ls:kp], '?')
			}
			n.start = kp
			col = kp - ls
		}
		n.col = col
		childIndent = col
		if parentIndent >= 0 && col > parentIndent && c.unit == 0 {
			c.unit = col - parentIndent
		}
	}
	for i, cy := range yn.Content {
		child, err := c.convert(cy, childIndent, n.flow)
		if err != nil {
			return err
		}
		if n.kind == mapKind && i%2 == 0 {
			n.keys = append(n.keys, child)
			continue
		}
		if n.kind == mapKind && child.kind == seqKind && !child.flow && c.seqIndented == 0 {
			if child.col > n.col {
				c.seqIndented = 1
			} else {
				c.seqIndented = -1
			}
		}
		n.children = append(n.children, child)
	}
	if !n.flow {
		n.end = n.start
		if k := len(n.children); k > 0 {
			n.end = max(n.children[k-1].end, n.start)
		}
		return nil
	}
	// Flow: the closing bracket follows the last entry, after spaces,
	// comments and maybe a trailing comma.
	i := n.start + 1
	if k := len(n.children); k > 0 {
		i = n.children[k-1].end
		if n.kind == mapKind && n.keys[k-1].end > i {
			i = n.keys[k-1].end
		}
	}
	closer := byte('}')
	if n.kind == seqKind {
		closer = ']'
	}
	for {
		i = skipSpaceAndComments(t, i)
		if i < len(t) && t[i] == ',' {
			i++
			continue
		}
		break
	}
	if i >= len(t) || t[i] != closer {
		return &syntaxError{format: YAML, offset: n.start, msg: fmt.Sprintf("cannot find the closing %q of a flow collection", closer)}
	}
	n.closeAt = i
	n.end = i + 1
	return nil
}
