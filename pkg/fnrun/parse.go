package fnrun

import (
	"bytes"
	"errors"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// This file reads one item of a ResourceList into the yaml.Node tree
// yaml.v3's parser gives for it (same kinds, styles, tags, values, line
// comments, lines and columns), for the shapes nearly every resource has:
// block mappings and sequences, plain and simply quoted scalars, literal
// block scalars, empty flow collections ({} and []) and comments at the end
// of a scalar's line. yaml.v3's scanner and parser pass every character
// through a queue of tokens and then of events; here the lines are read
// once. Anything else (full-line comments, anchors, aliases, tags, flow
// collections with content, escapes, folded or indented block scalars,
// multi-line plain or quoted scalars, tabs, non-ASCII text) is not
// attempted: parseItem says so and the caller has yaml.v3 read the item.
// The differential tests and FuzzParseItem hold the two to the same trees.

// itemParser reads items. Not safe for concurrent use: each reader
// goroutine has its own.
type itemParser struct {
	lines []itemLine
	pos   int // the line being read
	first int // the 1-based number the chunk's first line has in the input
	// numberTags caches how yaml.v3 resolves number-like plain values.
	numberTags map[string]string
	// nodes are handed out from here, a block at a time: one allocation
	// for many nodes.
	nodes []yaml.Node
	depth int // collections open: bounded, since "- - - …" nests one per two bytes
}

// itemLine is a line of the chunk: its text without the line break, and
// where its content starts (the column of the first character that is not
// a space; len(text) for a blank line).
type itemLine struct {
	text   []byte
	indent int
}

func (l itemLine) blank() bool { return l.indent == len(l.text) }

// errNotSimple: the item has something parseItem does not read.
var errNotSimple = errors.New("not a simple item")

// parseItem reads a chunk (one block sequence entry whose first line is
// line first, 1-based, of the input) and returns the entry's node.
func (p *itemParser) parseItem(text []byte, first int) (n *yaml.Node, err error) {
	if len(text) == 0 || text[len(text)-1] != '\n' {
		return nil, errNotSimple
	}
	p.lines = p.lines[:0]
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		line := text[:i]
		text = text[i+1:]
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		for _, c := range line {
			if c < 0x20 || c > 0x7e {
				return nil, errNotSimple // tabs, CR, control and non-ASCII characters
			}
		}
		if indent < len(line) && line[indent] == '#' {
			return nil, errNotSimple // a comment line: yaml.v3 decides which node holds it
		}
		p.lines = append(p.lines, itemLine{text: line, indent: indent})
	}
	p.pos, p.first, p.depth = 0, first, 0
	defer func() {
		if r := recover(); r != nil {
			if r != errNotSimple {
				panic(r)
			}
			n, err = nil, errNotSimple
		}
	}()
	l := p.lines[0]
	seq := p.sequence(l.indent)
	p.skipBlank()
	if p.pos != len(p.lines) || len(seq.Content) != 1 {
		return nil, errNotSimple
	}
	return seq.Content[0], nil
}

// notSimple abandons the item (parseItem recovers it).
func notSimple() { panic(errNotSimple) }

func (p *itemParser) node(kind yaml.Kind, tag string, line, column int) *yaml.Node {
	if len(p.nodes) == 0 {
		p.nodes = make([]yaml.Node, 256)
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	n.Kind, n.Tag, n.Line, n.Column = kind, tag, p.first+line, column+1
	return n
}

func (p *itemParser) skipBlank() {
	for p.pos < len(p.lines) && p.lines[p.pos].blank() {
		p.pos++
	}
}

// next returns the next line that is not blank when it belongs to the block
// at column indent (ok is false at the end of the chunk or of the block). A
// line indented more would continue a scalar or be an error: not read here.
func (p *itemParser) next(indent int) (l itemLine, ok bool) {
	p.skipBlank()
	if p.pos == len(p.lines) || p.lines[p.pos].indent < indent {
		return itemLine{}, false
	}
	if p.lines[p.pos].indent > indent {
		notSimple()
	}
	return p.lines[p.pos], true
}

// maxDepth bounds the collections parseItem nests; deeper items are left to
// yaml.v3, which has a bound of its own (10,000).
const maxDepth = 100

// enter opens a collection; leave closes it.
func (p *itemParser) enter() {
	if p.depth++; p.depth > maxDepth {
		notSimple()
	}
}

func (p *itemParser) leave() { p.depth-- }

// sequence reads a block sequence whose entries start at column indent.
func (p *itemParser) sequence(indent int) *yaml.Node {
	p.enter()
	defer p.leave()
	n := p.node(yaml.SequenceNode, "!!seq", p.pos, indent)
	for {
		l, ok := p.next(indent)
		if !ok || !isEntry(l.text[indent:]) {
			break
		}
		// the entry's content starts after "- " and any further spaces
		col := indent + 1
		for col < len(l.text) && l.text[col] == ' ' {
			col++
		}
		if col == len(l.text) {
			notSimple() // "-" alone: the entry is on the lines below
		}
		n.Content = append(n.Content, p.inline(col))
	}
	return n
}

// isEntry: the line's content starts a block sequence entry.
func isEntry(s []byte) bool {
	return len(s) > 0 && s[0] == '-' && (len(s) == 1 || s[1] == ' ')
}

// inline reads the node that starts at column col of the current line,
// after "- ": a nested entry, a mapping whose first key is there, or a
// scalar.
func (p *itemParser) inline(col int) *yaml.Node {
	l := &p.lines[p.pos]
	rest := l.text[col:]
	switch {
	case isEntry(rest):
		l.indent = col // read the rest of the line as if it started there
		return p.sequence(col)
	case keyEnd(rest) >= 0:
		l.indent = col
		return p.mapping(col)
	}
	return p.scalarAt(col, l.indent)
}

// keyEnd returns where a plain key ends in s (the index of its ':'), or -1
// when s does not start with a key parseItem reads.
func keyEnd(s []byte) int {
	if len(s) == 0 || !plainStart(s) {
		return -1
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i
			}
		case '#':
			if s[i-1] == ' ' {
				return -1 // a comment before any ": "
			}
		}
	}
	return -1
}

// plainStart: s starts with a character that begins a plain scalar (and
// nothing else) in block context.
func plainStart(s []byte) bool {
	switch c := s[0]; c {
	case '-', '?', ':':
		return len(s) > 1 && s[1] != ' ' && !(c == '-' && bytes.HasPrefix(s, []byte("---")))
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	case '.':
		return !bytes.HasPrefix(s, []byte("..."))
	}
	return true
}

// mapping reads a block mapping whose keys start at column indent.
func (p *itemParser) mapping(indent int) *yaml.Node {
	p.enter()
	defer p.leave()
	n := p.node(yaml.MappingNode, "!!map", p.pos, indent)
	for {
		l, ok := p.next(indent)
		if !ok || isEntry(l.text[indent:]) {
			break // the end of the mapping, or a sequence after it (compact, the parent's)
		}
		s := l.text[indent:]
		end := keyEnd(s)
		if end < 0 {
			notSimple()
		}
		if s[end-1] == ' ' || end > 1000 {
			notSimple() // spaces before ":"; yaml.v3 refuses keys over 1024 characters
		}
		key := p.plain(s[:end], p.pos, indent)
		n.Content = append(n.Content, key, p.value(indent, indent+end+1))
	}
	return n
}

// value reads a mapping value: on the key's line from column col, or on
// the lines below.
func (p *itemParser) value(indent, col int) *yaml.Node {
	l := p.lines[p.pos]
	start := col
	for start < len(l.text) && l.text[start] == ' ' {
		start++
	}
	if start < len(l.text) {
		if l.text[start] == '#' {
			notSimple() // a comment after "key:": yaml.v3 gives it to the key or what follows
		}
		return p.scalarAt(start, indent)
	}
	// nothing after "key:": a block below, a compact sequence, or null
	line := p.pos
	p.pos++
	p.skipBlank()
	if p.pos < len(p.lines) {
		next := p.lines[p.pos]
		switch {
		case next.indent > indent:
			if isEntry(next.text[next.indent:]) {
				return p.sequence(next.indent)
			}
			return p.mapping(next.indent)
		case next.indent == indent && isEntry(next.text[indent:]):
			return p.sequence(indent)
		}
	}
	return p.node(yaml.ScalarNode, "!!null", line, col)
}

// scalarAt reads the scalar (or empty flow collection) at column col of
// the current line and moves past it; a block scalar's lines must be
// indented more than indent.
func (p *itemParser) scalarAt(col, indent int) *yaml.Node {
	l := p.lines[p.pos]
	s := l.text[col:]
	var n *yaml.Node
	var rest []byte
	switch s[0] {
	case '"', '\'':
		q := s[0]
		end := 1
		var value []byte
		for ; ; end++ {
			if end == len(s) {
				notSimple() // continues on the next line
			}
			c := s[end]
			if c == '\\' && q == '"' {
				notSimple() // escapes
			}
			if c == q {
				if q == '\'' && end+1 < len(s) && s[end+1] == '\'' {
					value = append(value, '\'')
					end++
					continue
				}
				break
			}
			value = append(value, c)
		}
		n = p.node(yaml.ScalarNode, "!!str", p.pos, col)
		n.Value = string(value)
		n.Style = yaml.DoubleQuotedStyle
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		rest = s[end+1:]
		if len(rest) > 0 && rest[0] != ' ' {
			notSimple()
		}
	case '|':
		return p.literal(col, indent)
	case '{', '[':
		if len(s) < 2 || s[1] != s[0]+2 { // "{}" or "[]"
			notSimple()
		}
		kind, tag := yaml.MappingNode, "!!map"
		if s[0] == '[' {
			kind, tag = yaml.SequenceNode, "!!seq"
		}
		n = p.node(kind, tag, p.pos, col)
		n.Style = yaml.FlowStyle
		if len(bytes.TrimRight(s[2:], " ")) > 0 {
			notSimple() // a comment after a flow collection: not attempted
		}
		p.pos++
		return n
	default:
		if !plainStart(s) {
			notSimple()
		}
		end := len(s)
		for i := 1; i < len(s); i++ {
			if s[i] == '#' && s[i-1] == ' ' {
				end = i
				break
			}
			if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ') {
				notSimple() // "a: b: c" is an error; "- a: b" was read as a key
			}
		}
		n = p.plain(bytes.TrimRight(s[:end], " "), p.pos, col)
		rest = s[end:]
	}
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) > 0 {
		if rest[0] != '#' {
			notSimple()
		}
		n.LineComment = string(rest)
	}
	p.pos++
	// a more indented line after it would continue it: the loops reading
	// the enclosing mapping or sequence refuse such a line
	return n
}

// plain makes the plain scalar v found at (line, col), with the tag
// yaml.v3 resolves for it.
func (p *itemParser) plain(v []byte, line, col int) *yaml.Node {
	value := string(v)
	tag, ok := resolvePlain(value, &p.numberTags)
	if !ok || value == "<<" { // yaml.v3's parser tags "<<" !!merge
		notSimple()
	}
	n := p.node(yaml.ScalarNode, tag, line, col)
	n.Value = value
	return n
}

// literal reads a literal block scalar whose "|" is at column col of the
// current line; its lines are indented more than indent.
func (p *itemParser) literal(col, indent int) *yaml.Node {
	l := p.lines[p.pos]
	header := bytes.TrimRight(l.text[col+1:], " ")
	chomp := byte(0)
	switch {
	case len(header) == 0:
	case len(header) == 1 && (header[0] == '-' || header[0] == '+'):
		chomp = header[0]
	default:
		notSimple() // indentation indicators, comments
	}
	n := p.node(yaml.ScalarNode, "!!str", p.pos, col)
	n.Style = yaml.LiteralStyle
	p.pos++
	if p.pos == len(p.lines) || p.lines[p.pos].blank() {
		notSimple() // empty or starting with empty lines: yaml.v3's rules for those are not copied
	}
	content := p.lines[p.pos].indent
	if content <= indent {
		notSimple() // an empty scalar
	}
	var b []byte
	breaks := 0 // line breaks not yet written: trailing ones depend on the chomping
	for ; p.pos < len(p.lines); p.pos++ {
		line := p.lines[p.pos]
		if line.blank() {
			if len(line.text) > content {
				notSimple() // spaces beyond the indentation are content
			}
			breaks++
			continue
		}
		if line.indent < content {
			break
		}
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
		b = append(b, line.text[content:]...)
		breaks = 1
	}
	switch chomp {
	case 0:
		b = append(b, '\n')
	case '+':
		for ; breaks > 0; breaks-- {
			b = append(b, '\n')
		}
	}
	n.Value = string(b)
	return n
}

// resolvePlain is the tag yaml.v3 gives the plain scalar v (resolve.go);
// ok is false when it cannot be told here.
func resolvePlain(v string, cache *map[string]string) (tag string, ok bool) {
	if v == "" {
		return "!!null", true
	}
	switch c := v[0]; {
	case c == '+' || c == '-' || c == '.' || (c >= '0' && c <= '9'):
		// numbers, timestamps, .inf and .nan: ask yaml.v3, once per value
		if t, ok := (*cache)[v]; ok {
			return t, t != ""
		}
		t := resolveWithYAML(v)
		if *cache == nil {
			*cache = map[string]string{}
		}
		if len(*cache) < 4096 && len(v) <= 64 {
			(*cache)[v] = t
		}
		return t, t != ""
	case c == 'y' || c == 'Y' || c == 'n' || c == 'N' || c == 't' || c == 'T' || c == 'f' || c == 'F' ||
		c == 'o' || c == 'O' || c == '~':
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool", true
		case "~", "null", "Null", "NULL":
			return "!!null", true
		}
	}
	return "!!str", true
}
