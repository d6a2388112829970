package valuemerge

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// TOML is decoded with github.com/pelletier/go-toml/v2 and merged as data:
// tables merge key by key, recursively; any other value in the overlay
// (arrays and arrays of tables too) replaces the base's. The result is
// written as edits of the base text, located with the library's parser
// (package unstable, which gives each key and value its bytes): a changed
// value is written as the overlay wrote it, a new key goes at the end of
// its table's section (as a dotted key in the nearest table the base
// gives a header), a new table at the end of the text. The edited text is
// decoded again and must be the merge. What cannot be written so — a table
// replacing a value or the other way round, arrays of tables, inline
// tables the overlay reaches into — is written whole by the library
// instead: the meaning is the same, but comments go and keys are sorted.

func decodeTOML(s, which string) (map[string]any, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: TOML, Msg: "the value is empty"}
	}
	var v map[string]any
	if err := toml.Unmarshal([]byte(s), &v); err != nil {
		pe := &ParseError{Which: which, Format: TOML, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
		var de *toml.DecodeError
		if errors.As(err, &de) {
			pe.Line, pe.Column = de.Position()
		}
		return nil, pe
	}
	if tooDeep(v, 0) {
		// go-toml reads [a.a.a…] of fifty thousand parts in milliseconds;
		// merging and writing it takes the square of that and more
		return nil, &MergeError{Msg: fmt.Sprintf("the %s value nests tables more than %d deep, deeper than a value may nest", which, budget.MaxDepth)}
	}
	return v, nil
}

// tooDeep reports whether tables or arrays nest in v, at depth (the root
// table at 0), deeper than budget.MaxDepth.
func tooDeep(v any, depth int) bool {
	var children []any
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			children = append(children, c)
		}
	case []any:
		children = x
	default:
		return false
	}
	if depth > budget.MaxDepth {
		return true
	}
	for _, c := range children {
		if tooDeep(c, depth+1) {
			return true
		}
	}
	return false
}

func checkTOML(s, which string) error {
	_, err := decodeTOML(s, which)
	return err
}

func mergeTOML(base, overlay string) (string, error) {
	o, err := decodeTOML(overlay, "overlay")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(base) == "" {
		return overlay, nil
	}
	b, err := decodeTOML(base, "base")
	if err != nil {
		return "", err
	}
	want := mergeTables(b, o)
	if reflect.DeepEqual(comparable(want), comparable(b)) {
		return base, nil // nothing changes
	}
	if out, ok := editTOML(base, overlay, b, o, want); ok {
		return out, nil
	}
	return marshalTOML(want)
}

// editTOML writes the merge as edits of the base text; false when it
// cannot be written so, or the edited text does not decode to want.
func editTOML(base, overlay string, b, o, want map[string]any) (string, bool) {
	bd, err := indexTOML(base)
	if err != nil {
		return "", false
	}
	od, err := indexTOML(overlay)
	if err != nil {
		return "", false
	}
	e := &tomlEdit{base: bd, over: od}
	if !e.merge(nil, b, o) {
		return "", false
	}
	out := e.apply()
	return out, tomlMeans(out, want)
}

// marshalTOML writes the merge whole: comments go, keys are sorted.
func marshalTOML(want map[string]any) (string, error) {
	out, err := toml.Marshal(want)
	if err != nil || !tomlMeans(string(out), want) {
		return "", fmt.Errorf("internal error merging TOML (please report): the result does not decode to the merge")
	}
	return string(out), nil
}

// mergeTables is what a TOML merge means: the overlay's tables merge into
// the base's key by key, recursively; any other value of the overlay
// (arrays and arrays of tables too) replaces the base's. TOML has no null,
// so this is the whole of RFC 7386 that TOML can say.
func mergeTables(b, o map[string]any) map[string]any {
	out := make(map[string]any, len(b)+len(o))
	for k, v := range b {
		out[k] = v
	}
	for k, v := range o {
		om, oIsTable := v.(map[string]any)
		bm, bIsTable := out[k].(map[string]any)
		if oIsTable && bIsTable {
			v = mergeTables(bm, om)
		}
		out[k] = v
	}
	return out
}

// tomlMeans reports whether text decodes to want.
func tomlMeans(text string, want any) bool {
	var got map[string]any
	if toml.Unmarshal([]byte(text), &got) != nil {
		return false
	}
	return reflect.DeepEqual(comparable(got), comparable(want))
}

// comparable turns decoded TOML into values that compare equal when they
// mean the same: times by their text (a zone decoded twice is two
// pointers), NaN as text (NaN equals nothing).
func comparable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, c := range x {
			out[k] = comparable(c)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, c := range x {
			out[i] = comparable(c)
		}
		return out
	case time.Time:
		return "time " + x.Format(time.RFC3339Nano)
	case float64:
		if math.IsNaN(x) {
			return "NaN"
		}
	}
	return v
}

// tomlDoc is where a TOML text's keys and tables are.
type tomlDoc struct {
	src string
	// values holds the value bytes of each key-value, by path (parts joined by
	// \x00), outside arrays of tables.
	values map[string]span
	// sections holds where a new key of each table with a header (and of the
	// root, "") goes: the end of its section's last key-value line.
	sections map[string]int
	// arrays holds the paths of arrays of tables; nothing under them is edited.
	arrays map[string]bool
}

type span struct{ start, end int }

func pathKey(parts []string) string { return strings.Join(parts, "\x00") }

// indexTOML reads where things are in a TOML text.
func indexTOML(s string) (*tomlDoc, error) {
	x := tomlIndexer{d: &tomlDoc{src: s, values: map[string]span{}, sections: map[string]int{}, arrays: map[string]bool{}}, rootEnd: -1}
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
	x.rootSection()
	return x.d, nil
}

// tomlIndexer is indexTOML's state: the table whose section it is in.
type tomlIndexer struct {
	d       *tomlDoc
	table   []string
	section string
	inArray bool // the table is, or lies under, an array of tables
	rootEnd int  // before the first header and its comments; -1 until met
}

// header enters the section of a table header.
func (x *tomlIndexer) header(e *unstable.Node) {
	s := x.d.src
	parts, first := keyParts(e.Key())
	lineStart := strings.LastIndexByte(s[:first], '\n') + 1
	if x.rootEnd < 0 {
		x.rootEnd = commentsAbove(s, lineStart)
	}
	x.table = parts
	x.inArray = e.Kind == unstable.ArrayTable || x.d.underArray(parts)
	x.section = pathKey(parts)
	if e.Kind == unstable.ArrayTable {
		x.d.arrays[x.section] = true
	}
	if !x.inArray {
		x.d.sections[x.section] = lineEnd(s, lineStart)
	}
}

// keyValue records where a key-value's value is, and that its table's
// section goes on to the end of its line.
func (x *tomlIndexer) keyValue(e *unstable.Node) {
	if x.inArray {
		return
	}
	parts, _ := keyParts(e.Key())
	full := append(append([]string{}, x.table...), parts...)
	start, end := valueSpan(x.d.src, e)
	x.d.values[pathKey(full)] = span{start, end}
	if len(x.table) == 0 {
		x.d.sections[""] = lineEnd(x.d.src, end)
	} else {
		x.d.sections[x.section] = lineEnd(x.d.src, end)
	}
}

// rootSection ends the root's section, where no key-value did, before the
// first header and the comments above it (or at the end of the text).
func (x *tomlIndexer) rootSection() {
	if _, ok := x.d.sections[""]; ok {
		return
	}
	if x.rootEnd < 0 {
		x.rootEnd = len(x.d.src)
	}
	x.d.sections[""] = x.rootEnd
}

// underArray reports whether a table lies under an array of tables.
func (d *tomlDoc) underArray(parts []string) bool {
	for i := 1; i <= len(parts); i++ {
		if d.arrays[pathKey(parts[:i])] {
			return true
		}
	}
	return false
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

// lineEnd is the offset after the line break of the line holding off (the
// text's end when the line has none).
func lineEnd(s string, off int) int {
	if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(s)
}

// commentsAbove is the start of the comment lines directly above the line
// starting at off (off when there are none).
func commentsAbove(s string, off int) int {
	for off > 0 {
		prev := strings.LastIndexByte(s[:off-1], '\n') + 1
		if !strings.HasPrefix(strings.TrimLeft(s[prev:off], " \t"), "#") {
			break
		}
		off = prev
	}
	return off
}

// tomlEdit collects the edits that merge the overlay into the base text.
type tomlEdit struct {
	base, over *tomlDoc
	edits      []textEdit
	tables     []string // new tables, written at the end
}

type textEdit struct {
	start, end int
	text       string
}

// merge plans the edits merging overlay table o into base table b at
// path; false when they cannot be written in place.
func (e *tomlEdit) merge(path []string, b, o map[string]any) bool {
	for _, k := range sortedKeys(o) {
		sub := append(append([]string{}, path...), k)
		bv, inBase := b[k]
		if inBase && reflect.DeepEqual(comparable(bv), comparable(o[k])) {
			continue
		}
		if e.base.underArray(sub) || e.over.underArray(sub) || !e.mergeKey(sub, bv, o[k], inBase) {
			return false
		}
	}
	return true
}

// mergeKey plans the edit of one key the overlay sets to ov, whose base
// value is bv (inBase: there is one): a table merged, a new table or key
// added, a value replaced as the overlay wrote it. False when it cannot be
// written in place: a table for a value or a value for a table, or a
// value inside an inline table.
func (e *tomlEdit) mergeKey(sub []string, bv, ov any, inBase bool) bool {
	om, oIsTable := ov.(map[string]any)
	bm, bIsTable := bv.(map[string]any)
	switch {
	case oIsTable && bIsTable:
		return e.merge(sub, bm, om)
	case !inBase && oIsTable:
		return e.newTable(sub, om)
	case !inBase:
		return e.newKey(sub)
	case oIsTable || bIsTable:
		return false
	}
	return e.replaceValue(sub)
}

// replaceValue replaces the base's value at path with the overlay's text
// for it; false where either text has none of its own there (a value
// inside an inline table).
func (e *tomlEdit) replaceValue(path []string) bool {
	bs, ok1 := e.base.values[pathKey(path)]
	os, ok2 := e.over.values[pathKey(path)]
	if !ok1 || !ok2 {
		return false
	}
	e.edits = append(e.edits, textEdit{bs.start, bs.end, e.over.src[os.start:os.end]})
	return true
}

// newKey adds a value the base's table lacks, as the overlay wrote it, at
// the end of the section of the nearest table with a header.
func (e *tomlEdit) newKey(path []string) bool {
	os, ok := e.over.values[pathKey(path)]
	if !ok {
		return false
	}
	n := len(path) - 1
	for n > 0 {
		if _, ok := e.base.sections[pathKey(path[:n])]; ok {
			break
		}
		n--
	}
	at := e.base.sections[pathKey(path[:n])]
	line := indentBefore(e.base.src, at) + dottedKey(path[n:]) + " = " + e.over.src[os.start:os.end] + "\n"
	if at > 0 && e.base.src[at-1] != '\n' {
		line = "\n" + line
	}
	e.edits = append(e.edits, textEdit{at, at, line})
	return true
}

// indentBefore is the indentation of the line that ends at off, the last
// of a section, for the key added after it.
func indentBefore(s string, off int) string {
	if off == 0 {
		return ""
	}
	start := strings.LastIndexByte(s[:off-1], '\n') + 1
	line := s[start:off]
	if strings.TrimSpace(line) == "" {
		return ""
	}
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// newTable adds a table the base lacks, with a header of its own, at the
// end of the text: its values (those of tables inside it as dotted keys),
// as the overlay wrote them.
func (e *tomlEdit) newTable(path []string, t map[string]any) bool {
	var b strings.Builder
	b.WriteString("[" + dottedKey(path) + "]\n")
	var leaves func(rel []string, t map[string]any) bool
	leaves = func(rel []string, t map[string]any) bool {
		for _, k := range sortedKeys(t) {
			r := append(append([]string{}, rel...), k)
			if m, ok := t[k].(map[string]any); ok {
				if !leaves(r, m) {
					return false
				}
				continue
			}
			full := append(append([]string{}, path...), r...)
			if e.over.underArray(full) {
				return false
			}
			os, ok := e.over.values[pathKey(full)]
			if !ok {
				return false
			}
			b.WriteString(dottedKey(r) + " = " + e.over.src[os.start:os.end] + "\n")
		}
		return true
	}
	if !leaves(nil, t) {
		return false
	}
	e.tables = append(e.tables, b.String())
	return true
}

// apply writes the edits into the base text.
func (e *tomlEdit) apply() string {
	src := e.base.src
	sort.SliceStable(e.edits, func(i, j int) bool { return e.edits[i].start < e.edits[j].start })
	var b strings.Builder
	at := 0
	for _, ed := range e.edits {
		b.WriteString(src[at:ed.start])
		b.WriteString(ed.text)
		at = ed.end
	}
	b.WriteString(src[at:])
	for _, t := range e.tables {
		out := b.String()
		if !strings.HasSuffix(out, "\n") {
			b.WriteString("\n")
		}
		if !strings.HasSuffix(out, "\n\n") && out != "" {
			b.WriteString("\n")
		}
		b.WriteString(t)
	}
	return b.String()
}

// sortedKeys sorts because go-toml's maps have no order; edits at one place follow the
// keys' order, the same on every run.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// dottedKey writes a key's parts as TOML: bare where the grammar allows,
// else as basic strings.
func dottedKey(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = tomlKeyPart(p)
	}
	return strings.Join(out, ".")
}

func tomlKeyPart(p string) string {
	if isBareKey(p) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range p {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// bareKeyChars are the characters of a bare TOML key.
const bareKeyChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

// isBareKey reports whether a TOML key may be written without quotes:
// ASCII letters, digits, _ and - only.
func isBareKey(p string) bool {
	return p != "" && strings.Trim(p, bareKeyChars) == ""
}
