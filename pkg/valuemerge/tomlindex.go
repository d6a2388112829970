package valuemerge

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A TOML text is read, with the library's parser (package unstable, which
// gives each key and value its bytes), into where its tables, key-values
// and comments are, line by line: what the writer needs to edit it in
// place. A place is named by its path, encoded as one string: the key
// names from the root, each after a \x00, and the position of an element
// of an array of tables after a \x01 (tomlKey, tomlElement).

// tomlDoc is where a TOML text's tables and key-values are.
type tomlDoc struct {
	src   string
	lines []int      // the offset where each line starts
	kind  []lineKind // what each line holds
	// values holds every key-value, by path.
	values map[string]*tomlValue
	// tables holds the root (""), the tables with a header and the
	// elements of arrays of tables, by path; order has them in the text's
	// order, the root first.
	tables map[string]*tomlTable
	order  []*tomlTable
	// arrays holds the elements of each array of tables, by path.
	arrays map[string][]*tomlTable
	// first is where each path (a key, a table, a table dotted keys make)
	// first appears, which orders new keys as the text gives them.
	first map[string]int
	// unit is the indentation of a table's keys beyond its header's,
	// as the first table with a header and keys shows it.
	unit *string
	// crlf is set when the text breaks its lines with \r\n.
	crlf bool
}

// lineKind is what a line holds.
type lineKind uint8

const (
	blankLine lineKind = iota
	commentLine
	headerLine
	valueLine // a line of a key-value
)

// tomlValue is a key-value: its value's bytes and its lines (those of
// the key-value it is in, for one inside an inline table).
type tomlValue struct {
	start, end  int // the value
	first, last int // the lines of the key-value
	// inline is set for a key-value inside an inline table; table for an
	// inline table, whose new key-values go at addAt.
	inline, table bool
	addAt         int
}

// tomlTable is the root, a table with a header or an element of an array
// of tables: its header's line (-1 for the root) and the next header's
// line (the text's end for the last), between which its section lies.
type tomlTable struct {
	path         string
	header, next int
	pos          int // in the text's order of tables
	// body is bodyEnd's answer, +1 (0 until asked); keys, keyIndent's.
	body  int
	owned bool
	keys  *string
}

func tomlKey(parent, key string) string { return parent + "\x00" + key }

func tomlElement(array string, i int) string { return array + "\x01" + strconv.Itoa(i) }

// indexTOML reads where things are in a TOML text.
func indexTOML(s string) (*tomlDoc, error) {
	d := &tomlDoc{src: s, lines: lineStarts(s), values: map[string]*tomlValue{}, tables: map[string]*tomlTable{},
		arrays: map[string][]*tomlTable{}, first: map[string]int{}, crlf: strings.Contains(s, "\r\n")}
	d.kind = make([]lineKind, len(d.lines))
	root := &tomlTable{path: "", header: -1}
	d.tables[""], d.order = root, []*tomlTable{root}
	x := tomlIndexer{d: d, table: root}
	var p unstable.Parser
	p.Reset([]byte(s))
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			x.header(e)
		case unstable.KeyValue:
			x.keyValue(e)
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	d.finish()
	return d, nil
}

// lineStarts is where each line of s starts.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// tomlIndexer is indexTOML's state: the table whose section it reads.
type tomlIndexer struct {
	d     *tomlDoc
	table *tomlTable
}

// header enters the section of a table header, resolving its path: a key
// on the way that names an array of tables goes into its last element.
func (x *tomlIndexer) header(e *unstable.Node) {
	d := x.d
	parts, first := keyParts(e.Key())
	path := ""
	for i, k := range parts {
		path = tomlKey(path, k)
		d.see(path, first)
		if els := d.arrays[path]; len(els) > 0 && (i < len(parts)-1 || e.Kind == unstable.Table) {
			path = els[len(els)-1].path
		}
	}
	t := &tomlTable{path: path, header: d.lineOf(first), pos: len(d.order)}
	if e.Kind == unstable.ArrayTable {
		t.path = tomlElement(path, len(d.arrays[path]))
		d.arrays[path] = append(d.arrays[path], t)
	}
	d.kind[t.header] = headerLine
	d.tables[t.path] = t
	d.order = append(d.order, t)
	x.table = t
}

// keyValue records a key-value of the current section.
func (x *tomlIndexer) keyValue(e *unstable.Node) {
	d := x.d
	parts, first := keyParts(e.Key())
	path := x.table.path
	for _, k := range parts {
		path = tomlKey(path, k)
		d.see(path, first)
	}
	start, end := valueSpan(d.src, e)
	v := &tomlValue{start: start, end: end, first: d.lineOf(first), last: d.lineOf(max(end-1, first))}
	for l := v.first; l <= v.last; l++ {
		d.kind[l] = valueLine
	}
	d.values[path] = v
	d.inlineTable(path, e.Value(), v)
}

// inlineTable records the key-values of the inline table that value n,
// of the key-value v at path, is ({a = 1, b = {c = 2}}), and where a new
// key goes in it: after its last key-value, or after its "{".
func (d *tomlDoc) inlineTable(path string, n *unstable.Node, v *tomlValue) {
	if n == nil || n.Kind != unstable.InlineTable {
		return
	}
	v.table, v.addAt = true, v.start+1
	for it := n.Children(); it.Next(); {
		c := it.Node()
		if c.Kind != unstable.KeyValue {
			continue
		}
		parts, first := keyParts(c.Key())
		sub := path
		for _, k := range parts {
			sub = tomlKey(sub, k)
			d.see(sub, first)
		}
		start, end := valueSpan(d.src, c)
		cv := &tomlValue{start: start, end: end, first: v.first, last: v.last, inline: true}
		d.values[sub] = cv
		d.inlineTable(sub, c.Value(), cv)
		v.addAt = end
	}
}

// see records where path first appears.
func (d *tomlDoc) see(path string, off int) {
	if _, ok := d.first[path]; !ok {
		d.first[path] = off
	}
}

// finish sets where each section ends, and what the lines no expression
// holds are: blank, or comments.
func (d *tomlDoc) finish() {
	for i, t := range d.order {
		t.next = len(d.lines)
		if i+1 < len(d.order) {
			t.next = d.order[i+1].header
		}
	}
	for l := range d.kind {
		if d.kind[l] == blankLine && strings.TrimSpace(d.line(l)) != "" {
			d.kind[l] = commentLine
		}
	}
}

// newlines is text with the text's line breaks: \r\n where it uses them.
func (d *tomlDoc) newlines(text string) string {
	if d.crlf {
		return strings.ReplaceAll(text, "\n", "\r\n")
	}
	return text
}

// lineOf is the line holding offset off.
func (d *tomlDoc) lineOf(off int) int {
	return sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
}

// lineStart is the offset where line l starts (the text's end past the
// last line).
func (d *tomlDoc) lineStart(l int) int {
	if l >= len(d.lines) {
		return len(d.src)
	}
	return d.lines[l]
}

// line is the text of line l, without its line break.
func (d *tomlDoc) line(l int) string {
	return strings.TrimRight(d.src[d.lines[l]:d.lineStart(l+1)], "\r\n")
}

// indent is the white space that starts line l.
func (d *tomlDoc) indent(l int) string {
	s := d.line(l)
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// keyParts are a key's parts and the offset of its first byte.
func keyParts(it unstable.Iterator) ([]string, int) {
	var parts []string
	first := -1
	for it.Next() {
		n := it.Node()
		if first < 0 {
			first = int(n.Raw.Offset)
		}
		parts = append(parts, string(n.Data))
	}
	return parts, first
}

// valueSpan is where a key-value's value is: after the = (and the white
// space after it) that follows its key, to the end of the expression.
func valueSpan(s string, e *unstable.Node) (int, int) {
	end := int(e.Raw.Offset + e.Raw.Length)
	it := e.Key()
	last := 0
	for it.Next() {
		last = int(it.Node().Raw.Offset + it.Node().Raw.Length)
	}
	i := last
	for i < end && s[i] != '=' {
		i++ // white space, or a quoted key's closing quote
	}
	i++
	for i < end && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i, end
}
