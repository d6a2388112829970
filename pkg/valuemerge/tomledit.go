package valuemerge

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// A TOML merge is written as edits of the base text, planned on the two
// texts' indexes (indexTOML) and the decoded values: a changed value is
// written as the overlay wrote it; a new key goes after the last line its
// table owns, indented as its keys (tomlplace.go), in the overlay's order,
// as a dotted key in the nearest table the base gives a header (or in the
// inline table it goes into); a new table at the end of the text. An array of tables the overlay replaces is
// edited element by element, as a table each: keys set, added and deleted
// with their comments; elements the overlay adds follow the last one, and
// those it drops go with their comments. A key whose value becomes a table
// (or the other way round) is deleted and added again. What cannot be
// written so (keys inside an inline table the overlay merges into) is
// written whole by the library, and the result says what that loses and
// why.

// writeTOML writes want, the merge of overlay o into base b, as edits of
// the base text, or whole where it cannot, saying what that loses and why
// (Merged.Lost, Merged.Why).
func writeTOML(base, overlay string, b, o, want map[string]any) (Merged, error) {
	out, why := editTOML(base, overlay, b, o)
	if why == "" && !tomlMeans(out, want) {
		why = "the edits would not read as the merge (please report this)"
	}
	if why == "" {
		return Merged{Text: out}, nil
	}
	text, err := marshalTOML(want)
	return Merged{Text: text, Lost: "the merged TOML is written whole by the TOML library: the base's comments and layout are lost and its keys sorted", Why: why}, err
}

// editTOML writes the merge as edits of the base text; why, when not
// empty, says why it cannot.
func editTOML(base, overlay string, b, o map[string]any) (out, why string) {
	bd, err := indexTOML(base)
	if err != nil {
		return "", "the base cannot be read for editing: " + err.Error()
	}
	od, err := indexTOML(overlay)
	if err != nil {
		return "", "the overlay cannot be read for editing: " + err.Error()
	}
	e := &tomlEdit{base: bd, over: od}
	if !e.merge(nil, b, o, false) {
		return "", e.why
	}
	return e.apply()
}

// tomlEdit collects the edits that merge the overlay into the base text.
type tomlEdit struct {
	base, over *tomlDoc
	values     []textEdit // values replaced
	inserts    []textEdit // text put before a line
	cuts       [][2]int   // lines deleted (from, to)
	tables     []string   // new tables, written at the end
	// gone holds the base's keys deleted, by path: nothing new goes into
	// them.
	gone map[string]bool
	why  string
}

type textEdit struct {
	start, end int
	text       string
	// section is set for text that starts with a header: at one place,
	// what is not goes first, or the header would take it.
	section bool
}

// fail records why the merge cannot be written in place.
func (e *tomlEdit) fail(format string, args ...any) bool {
	if e.why == "" {
		e.why = fmt.Sprintf(format, args...)
	}
	return false
}

// merge plans the edits merging overlay table o into base table b at p:
// key by key, in the overlay's order; with replace, as o replacing b
// (an element of an array of tables), b's keys that o lacks deleted.
func (e *tomlEdit) merge(p tomlPath, b, o map[string]any, replace bool) bool {
	for _, k := range e.overlayOrder(p, o) {
		bv, inBase := b[k]
		if inBase && reflect.DeepEqual(comparable(bv), comparable(o[k])) {
			continue
		}
		if !e.put(p.key(k), bv, o[k], inBase, replace) {
			return false
		}
	}
	if !replace {
		return true
	}
	for _, k := range sortedKeys(b) {
		if _, ok := o[k]; !ok && !e.remove(p.key(k), b[k]) {
			return false
		}
	}
	return true
}

// put plans the edit of one key the overlay sets to ov, whose base value
// is bv (inBase: there is one): tables merged (replaced, with replace),
// inline tables too (one replaced is written as the overlay wrote it), an
// array of tables edited element by element, a value replaced, a key of
// another shape deleted and added again, a new one added.
func (e *tomlEdit) put(p tomlPath, bv, ov any, inBase, replace bool) bool {
	if !inBase {
		return e.add(p, ov)
	}
	bs, os := e.base.shape(p, bv), e.over.shape(p, ov)
	switch {
	case bs == inlineTable && replace && os == inlineTable:
		return e.replaceValue(p, ov)
	case bs == inlineTable && replace:
		return e.remove(p, bv) && e.add(p, ov)
	case bs.isTable() && os.isTable():
		return e.merge(p, bv.(map[string]any), ov.(map[string]any), replace)
	case bs != os:
		return e.remove(p, bv) && e.add(p, ov)
	case bs == tableArray:
		return e.replaceArray(p, bv.([]any), ov.([]any))
	}
	return e.replaceValue(p, ov)
}

// tomlShape is what a key holds, as far as editing goes.
type tomlShape uint8

const (
	plainValue  tomlShape = iota // a value, inline arrays and tables too
	table                        // a table with a header, or dotted keys
	inlineTable                  // a table written { ... } (merged into, not replaced)
	tableArray                   // an array of tables written [[...]]
)

// isTable reports whether the shape is a table's, inline or not.
func (s tomlShape) isTable() bool { return s == table || s == inlineTable }

// shape is what the text holds at p, whose value is v.
func (d *tomlDoc) shape(p tomlPath, v any) tomlShape {
	_, isTable := v.(map[string]any)
	switch {
	case isTable && d.values[p.enc()] != nil:
		return inlineTable
	case isTable:
		return table
	case len(d.arrays[p.enc()]) > 0:
		return tableArray
	}
	return plainValue
}

// replaceValue writes the overlay's value for p over the base's.
func (e *tomlEdit) replaceValue(p tomlPath, ov any) bool {
	bv := e.base.values[p.enc()]
	text, ok := e.valueText(p, ov)
	if bv == nil || !ok {
		return e.fail("the value at %s has no text of its own to replace", p)
	}
	e.values = append(e.values, textEdit{start: bv.start, end: bv.end, text: text})
	return true
}

// valueText is the overlay's text for its value v at p, or v written by
// the library where the overlay holds it inside another value.
func (e *tomlEdit) valueText(p tomlPath, v any) (string, bool) {
	if ov := e.over.values[p.enc()]; ov != nil {
		return e.over.src[ov.start:ov.end], true
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return "{}", true // a table the overlay names without a key
	}
	out, err := toml.Marshal(map[string]any{"v": v})
	text, found := strings.CutPrefix(strings.TrimSpace(string(out)), "v = ")
	return text, err == nil && found && !strings.Contains(text, "\n")
}

// add plans a key the base lacks: a key-value as the overlay wrote it
// (an inline table too), a table, an array of tables, a value.
func (e *tomlEdit) add(p tomlPath, ov any) bool {
	if e.over.values[p.enc()] != nil {
		return e.newKey(p, ov)
	}
	if t, ok := ov.(map[string]any); ok {
		return e.newTable(p, t)
	}
	if e.over.shape(p, ov) == tableArray {
		return e.newArray(p, ov.([]any))
	}
	return e.newKey(p, ov)
}

// newKey adds a value the base's table lacks, as the overlay wrote it,
// after the last line of the nearest table the base gives a header (a
// dotted key there), indented as that table's keys.
func (e *tomlEdit) newKey(p tomlPath, v any) bool {
	text, ok := e.valueText(p, v)
	if !ok {
		return e.fail("the value at %s has no text to copy", p)
	}
	n := len(p) - 1
	for n > 0 && (e.base.tables[p[:n].enc()] == nil || e.gone[p[:n].enc()]) {
		if v := e.base.values[p[:n].enc()]; v != nil && v.table && !e.gone[p[:n].enc()] {
			return e.inlineKey(v, p[n:].names(), text)
		}
		n--
	}
	t := e.base.tables[p[:n].enc()]
	line := e.base.keyIndent(t) + dottedKey(p[n:].names()) + " = " + text + "\n"
	e.insert(e.base.insertLine(t), line, false)
	return true
}

// inlineKey adds the key rel, whose value is text, to the inline table v:
// after its last key-value, or after its "{".
func (e *tomlEdit) inlineKey(v *tomlValue, rel []string, text string) bool {
	sep := ", "
	if v.addAt == v.start+1 {
		sep = " "
	}
	e.inserts = append(e.inserts, textEdit{start: v.addAt, end: v.addAt, text: sep + dottedKey(rel) + " = " + text})
	return true
}

// insert puts text before line l of the base, with the base's line
// breaks; section says it starts with a header.
func (e *tomlEdit) insert(l int, text string, section bool) {
	at := e.base.lineStart(l)
	e.inserts = append(e.inserts, textEdit{start: at, end: at, text: e.base.newlines(text), section: section})
}

// newTable adds a table the base lacks: with a header of its own at the
// end of the text, its values (those of tables inside it as dotted keys)
// as the overlay wrote them; inside an element of an array of tables,
// where a header at the end would not land, or inside an inline table,
// as dotted keys of what it goes into.
func (e *tomlEdit) newTable(p tomlPath, t map[string]any) bool {
	if p.inElement() || e.inInline(p) {
		return e.leafKeys(p, t)
	}
	var b strings.Builder
	b.WriteString("[" + dottedKey(p.names()) + "]\n")
	if !e.writeTable(&b, p, t, "", e.base.keyUnit()) {
		return false
	}
	e.tables = append(e.tables, e.base.newlines(b.String()))
	return true
}

// leafKeys adds every value of table t at p as a new key.
func (e *tomlEdit) leafKeys(p tomlPath, t map[string]any) bool {
	if len(t) == 0 {
		return e.newKey(p, t) // "k = {}": dotted keys would say nothing
	}
	for _, k := range e.overlayOrder(p, t) {
		if !e.add(p.key(k), t[k]) {
			return false
		}
	}
	return true
}

// writeTable writes table t at p as new text: its values as key-value
// lines indented by ind (tables inside it as dotted keys), then the
// elements of its arrays of tables, each after a header of its own
// indented by hdr, which come last: what follows a header is its.
func (e *tomlEdit) writeTable(b *strings.Builder, p tomlPath, t map[string]any, hdr, ind string) bool {
	var arrays []tomlArray
	if !e.writeLeaves(b, p, nil, t, ind, &arrays) {
		return false
	}
	for _, a := range arrays {
		for i, v := range a.els {
			el, ok := v.(map[string]any)
			if !ok {
				return e.fail("the element %s is not a table", a.p.element(i))
			}
			b.WriteString(hdr + "[[" + dottedKey(a.p.names()) + "]]\n")
			if !e.writeTable(b, a.p.element(i), el, hdr, ind) {
				return false
			}
		}
	}
	return true
}

// tomlArray is an array of tables to write: where, and its elements.
type tomlArray struct {
	p   tomlPath
	els []any
}

// writeLeaves writes the values of table t at p (rel below the table
// being written) as key-value lines, indented by indent, in the overlay's
// order; tables inside it as dotted keys; its arrays of tables it adds to
// arrays, for writeTable.
func (e *tomlEdit) writeLeaves(b *strings.Builder, p tomlPath, rel []string, t map[string]any, indent string, arrays *[]tomlArray) bool {
	for _, k := range e.overlayOrder(p, t) {
		sub, r := p.key(k), append(rel[:len(rel):len(rel)], k)
		switch m, ok := t[k].(map[string]any); {
		case ok && len(m) > 0 && e.over.values[sub.enc()] == nil:
			if !e.writeLeaves(b, sub, r, m, indent, arrays) {
				return false
			}
			continue
		case e.over.shape(sub, t[k]) == tableArray:
			*arrays = append(*arrays, tomlArray{sub, t[k].([]any)})
			continue
		}
		text, ok := e.valueText(sub, t[k])
		if !ok {
			return e.fail("the value at %s has no text to copy", sub)
		}
		b.WriteString(indent + dottedKey(r) + " = " + text + "\n")
	}
	return true
}

// overlayOrder is the keys of table t at p in the order the overlay
// gives them (by name where it does not).
func (e *tomlEdit) overlayOrder(p tomlPath, t map[string]any) []string {
	keys := sortedKeys(t)
	at := func(k string) int {
		if off, ok := e.over.first[p.key(k).enc()]; ok {
			return off
		}
		return len(e.over.src)
	}
	sort.SliceStable(keys, func(i, j int) bool { return at(keys[i]) < at(keys[j]) })
	return keys
}

// tomlPath is a place in a TOML value: the keys from the root, and the
// elements of arrays of tables on the way.
type tomlPath []tomlStep

// tomlStep is one step of a path: a key, or an element of an array of
// tables (elem, with its position i).
type tomlStep struct {
	enc  string // the path up to here, encoded (tomlKey, tomlElement)
	name string
	elem bool
	i    int
}

func (p tomlPath) enc() string {
	if len(p) == 0 {
		return ""
	}
	return p[len(p)-1].enc
}

func (p tomlPath) key(k string) tomlPath {
	return append(p[:len(p):len(p)], tomlStep{enc: tomlKey(p.enc(), k), name: k})
}

func (p tomlPath) element(i int) tomlPath {
	return append(p[:len(p):len(p)], tomlStep{enc: tomlElement(p.enc(), i), elem: true, i: i})
}

// names are the path's keys, without its elements: a header's or a
// dotted key's parts.
func (p tomlPath) names() []string {
	var out []string
	for _, s := range p {
		if !s.elem {
			out = append(out, s.name)
		}
	}
	return out
}

// inElement reports whether the path goes through an element of an array
// of tables.
func (p tomlPath) inElement() bool {
	for _, s := range p {
		if s.elem {
			return true
		}
	}
	return false
}

// lastElement is the path up to its last element of an array of tables
// (the whole path when it has none).
func (p tomlPath) lastElement() tomlPath {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].elem {
			return p[:i+1]
		}
	}
	return p
}

// String names the place in messages: servers[1].port.
func (p tomlPath) String() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.elem:
			b.WriteString("[" + strconv.Itoa(s.i) + "]")
		case b.Len() > 0:
			b.WriteString("." + tomlKeyPart(s.name))
		default:
			b.WriteString(tomlKeyPart(s.name))
		}
	}
	return b.String()
}
