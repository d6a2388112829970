package span

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonParser is a strict RFC 8259 parser that records the span of every
// value. encoding/json cannot tell where a value sits, and the whole point
// of the tree is to let an edit change those bytes and no others.
type jsonParser struct {
	s   string
	pos int
	// build is false while checking the whole text (values are scanned,
	// not kept) and true while opening a container.
	build bool
}

// ParseJSON checks the whole text and returns the document with its root.
// Maps and lists are built lazily: their entries become nodes only when a
// path goes through them (see Open), so an edit costs a scan of the text
// and the nodes on its path, not a node per value.
func ParseJSON(text string) (*Tree, error) {
	p := &jsonParser{s: text}
	p.skipSpace()
	start := p.pos
	if _, err := p.value(0); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, p.errorf("unexpected %s after the end of the JSON value", p.describeHere())
	}
	// Checked; now the root itself (its entries wait for Open).
	p = &jsonParser{s: text, pos: start, build: true}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	return &Tree{Text: text, Format: JSON, Root: root, Newline: detectNewline(text)}, nil
}

// Open builds the entries of a lazily parsed JSON map or list. The text was
// checked when the document was parsed, so this cannot fail.
func (t *Tree) Open(n *Node) {
	if !n.lazy {
		return
	}
	n.lazy = false
	p := &jsonParser{s: t.Text, pos: n.Start + 1, build: true}
	for {
		p.skipSpace()
		if p.pos >= n.CloseAt || !p.openEntry(n) {
			return
		}
	}
}

// openEntry builds the next entry of n, the key (of a map) and the value,
// and moves past the comma after it; false when there is none to build.
func (p *jsonParser) openEntry(n *Node) bool {
	if n.Kind == Map {
		key, err := p.stringNode()
		if err != nil {
			return false
		}
		p.skipSpace()
		p.pos++ // :
		p.skipSpace()
		n.Keys = append(n.Keys, key)
	}
	v, err := p.value(0)
	if err != nil {
		return false
	}
	n.Children = append(n.Children, v)
	p.skipSpace()
	if p.at(',') {
		p.pos++
	}
	return true
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 1000

// errorf is a syntax error at p.pos.
func (p *jsonParser) errorf(format string, args ...any) error {
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), text: p.s, offset: p.pos}
}

// describeHere names the character at p.pos for a message.
func (p *jsonParser) describeHere() string {
	if p.pos >= len(p.s) {
		return "end of text"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return strconv.QuoteRune(r)
}

// skipSpace moves past JSON white space.
func (p *jsonParser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value reads the value at p.pos: checks it (and returns nil) while
// checking the text, or builds its node.
func (p *jsonParser) value(depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested more than %d levels deep", maxDepth)
	}
	if p.pos >= len(p.s) {
		return nil, p.errorf("unexpected end of text, expected a value")
	}
	switch c := p.s[p.pos]; {
	case c == '{' || c == '[':
		return p.container(depth)
	case c == '"':
		return p.stringValue()
	case c == '-' || isDigit(c):
		return p.number()
	}
	return p.word()
}

// stringValue checks a string, or builds its node.
func (p *jsonParser) stringValue() (*Node, error) {
	if !p.build {
		_, err := p.str()
		return nil, err
	}
	return p.stringNode()
}

// container checks a map or list, or, once checked, builds its node
// without looking inside (Tree.Open does that when a path goes through).
func (p *jsonParser) container(depth int) (*Node, error) {
	start := p.pos
	isMap := p.s[start] == '{'
	if !p.build {
		if isMap {
			return nil, p.object(depth)
		}
		return nil, p.array(depth)
	}
	kind := Map
	if !isMap {
		kind = Seq
	}
	p.pos = matchingBracket(p.s, p.pos)
	return &Node{Kind: kind, Start: start, End: p.pos, CloseAt: p.pos - 1, Flow: true, lazy: true}, nil
}

// jsonWords are the literal names JSON has.
var jsonWords = []struct{ text, tag string }{{"true", BoolTag}, {"false", BoolTag}, {"null", NullTag}}

// word reads true, false or null.
func (p *jsonParser) word() (*Node, error) {
	for _, w := range jsonWords {
		if strings.HasPrefix(p.s[p.pos:], w.text) {
			return p.literal(w.text, w.tag)
		}
	}
	return nil, p.errorf("unexpected %s, expected a value", p.describeHere())
}

// literal reads word, a name of JSON's, whose tag is tag.
func (p *jsonParser) literal(word, tag string) (*Node, error) {
	p.pos += len(word)
	if !p.build {
		return nil, nil
	}
	return &Node{Kind: Scalar, Start: p.pos - len(word), End: p.pos, Value: word, Tag: tag}, nil
}

// object checks a map, entries and all.
func (p *jsonParser) object(depth int) error {
	return p.entries('}', func() error { return p.member(depth) })
}

// member checks an entry of a map: a string key, ':' and a value.
func (p *jsonParser) member(depth int) error {
	if !p.at('"') {
		return p.errorf("unexpected %s, expected a string key", p.describeHere())
	}
	key, err := p.str()
	if err != nil {
		return err
	}
	p.skipSpace()
	if !p.at(':') {
		return p.errorf("unexpected %s, expected ':' after the key %q", p.describeHere(), key)
	}
	p.pos++
	p.skipSpace()
	_, err = p.value(depth + 1)
	return err
}

// array checks a list, elements and all.
func (p *jsonParser) array(depth int) error {
	return p.entries(']', func() error {
		_, err := p.value(depth + 1)
		return err
	})
}

// entries checks the entries of a map or list from its opening bracket at
// p.pos to its closing one, close: each by entry, separated by commas.
func (p *jsonParser) entries(close byte, entry func() error) error {
	p.pos++ // { or [
	p.skipSpace()
	if p.at(close) {
		p.pos++
		return nil
	}
	for {
		p.skipSpace()
		if err := entry(); err != nil {
			return err
		}
		p.skipSpace()
		if closed, err := p.separator(close); closed || err != nil {
			return err
		}
	}
}

// separator reads what follows an entry: a comma, or the closing bracket
// close (closed is then true).
func (p *jsonParser) separator(close byte) (closed bool, err error) {
	if p.pos >= len(p.s) {
		return false, p.errorf("unexpected end of text, expected ',' or '%c'", close)
	}
	switch p.s[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case close:
		p.pos++
		return true, nil
	}
	return false, p.errorf("unexpected %s, expected ',' or '%c'", p.describeHere(), close)
}

// matchingBracket returns the offset after the map or list starting at i,
// in text already checked: only strings need care.
func matchingBracket(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '"':
			i = closingQuote(s, i)
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// closingQuote is the offset of the quote that closes the string opening
// at i, in text already checked (len(s) when there is none).
func closingQuote(s string, i int) int {
	for i++; i < len(s) && s[i] != '"'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

// number reads a number in JSON's grammar: an integer part, then maybe a
// fraction and an exponent, either of which makes it a float.
func (p *jsonParser) number() (*Node, error) {
	start := p.pos
	if err := p.integer(); err != nil {
		return nil, err
	}
	frac, err := p.part(".", "", "after '.'")
	if err != nil {
		return nil, err
	}
	exp, err := p.part("eE", "+-", "in the exponent")
	if err != nil || !p.build {
		return nil, err
	}
	tag := IntTag
	if frac || exp {
		tag = FloatTag
	}
	return &Node{Kind: Scalar, Start: start, End: p.pos, Value: p.s[start:p.pos], Tag: tag}, nil
}

// integer reads the sign and the integer part of a number.
func (p *jsonParser) integer() error {
	if p.at('-') {
		p.pos++
	}
	if p.at('0') {
		p.pos++ // no other digit may follow a leading 0
		return nil
	}
	if p.digits() == 0 {
		return p.errorf("invalid number: expected a digit")
	}
	return nil
}

// part reads the fraction or the exponent of a number, if there is one: a
// character of marks, maybe one of signs, and digits, which must be there
// (where says where, for the message).
func (p *jsonParser) part(marks, signs, where string) (bool, error) {
	if p.pos >= len(p.s) || !strings.ContainsRune(marks, rune(p.s[p.pos])) {
		return false, nil
	}
	p.pos++
	if p.pos < len(p.s) && strings.ContainsRune(signs, rune(p.s[p.pos])) {
		p.pos++
	}
	if p.digits() == 0 {
		return false, p.errorf("invalid number: expected a digit %s", where)
	}
	return true, nil
}

// at reports whether the byte at p.pos is c.
func (p *jsonParser) at(c byte) bool { return p.pos < len(p.s) && p.s[p.pos] == c }

// digits moves past decimal digits and returns how many there were.
func (p *jsonParser) digits() int {
	n := 0
	for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
		p.pos++
		n++
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stringNode reads a string and builds its node.
func (p *jsonParser) stringNode() (*Node, error) {
	start := p.pos
	v, err := p.str()
	if err != nil {
		return nil, err
	}
	return &Node{Kind: Scalar, Start: start, End: p.pos, Value: v, Tag: StrTag, Style: Double}, nil
}

// str reads a quoted string and returns its decoded value.
func (p *jsonParser) str() (string, error) {
	p.pos++ // opening quote
	// Fast path: no escapes.
	i := unescapedEnd(p.s, p.pos)
	if i < len(p.s) && p.s[i] == '"' {
		v := p.s[p.pos:i]
		if !utf8.ValidString(v) {
			p.pos = i
			return "", p.errorf("invalid UTF-8 in string")
		}
		p.pos = i + 1
		return v, nil
	}
	var b strings.Builder
	b.WriteString(p.s[p.pos:i])
	p.pos = i
	return p.escapedStr(&b)
}

// unescapedEnd is where the text of a string from i on stops being what it
// stands for: at the closing quote, an escape or a control character.
func unescapedEnd(s string, i int) int {
	for i < len(s) && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20 {
		i++
	}
	return i
}

// escapedStr reads the rest of a string that has escapes, from p.pos,
// after the text before the first of them, which b holds.
func (p *jsonParser) escapedStr(b *strings.Builder) (string, error) {
	for {
		if p.pos >= len(p.s) {
			return "", p.errorf("unexpected end of text inside a string")
		}
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return p.validUTF8(b.String())
		case c < 0x20:
			return "", p.errorf("control character %U in string (write it as an escape)", rune(c))
		case c == '\\':
			if err := p.escape(b); err != nil {
				return "", err
			}
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
}

// validUTF8 is v, a string's decoded value, when it is UTF-8.
func (p *jsonParser) validUTF8(v string) (string, error) {
	if !utf8.ValidString(v) {
		return "", p.errorf("invalid UTF-8 in string")
	}
	return v, nil
}

// escape decodes the escape at p.pos into b. A lone surrogate becomes
// U+FFFD, as encoding/json has it.
func (p *jsonParser) escape(b *strings.Builder) error {
	if p.pos+1 >= len(p.s) {
		return p.errorf("unexpected end of text inside a string")
	}
	c := p.s[p.pos+1]
	if r, ok := jsonEscapes[c]; ok {
		b.WriteByte(r)
		p.pos += 2
		return nil
	}
	if c != 'u' {
		return p.errorf("invalid escape \\%c in string", c)
	}
	r, err := p.hex4(p.pos + 2)
	if err != nil {
		return err
	}
	p.pos += 6
	if utf16.IsSurrogate(r) {
		r = p.lowSurrogate(r)
	}
	b.WriteRune(r)
	return nil
}

// lowSurrogate reads the \u escape at p.pos that completes the surrogate
// pair r starts, and returns the pair's character; U+FFFD, reading
// nothing, when no such escape follows.
func (p *jsonParser) lowSurrogate(r rune) rune {
	if !strings.HasPrefix(p.s[p.pos:], `\u`) {
		return utf8.RuneError
	}
	r2, err := p.hex4(p.pos + 2)
	if err != nil {
		return utf8.RuneError
	}
	dec := utf16.DecodeRune(r, r2)
	if dec != utf8.RuneError {
		p.pos += 6
	}
	return dec
}

var jsonEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// hex4 reads the four hex digits of a \u escape at offset at.
func (p *jsonParser) hex4(at int) (rune, error) {
	if at+4 > len(p.s) {
		p.pos = at
		return 0, p.errorf("invalid \\u escape: expected 4 hex digits")
	}
	v, err := strconv.ParseUint(p.s[at:at+4], 16, 32)
	if err != nil {
		p.pos = at
		return 0, p.errorf("invalid \\u escape: expected 4 hex digits")
	}
	return rune(v), nil
}
