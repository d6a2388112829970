package valuemerge

import (
	"sort"
	"strings"
)

// replaceArray plans the edits of an array of tables the overlay
// replaces, both written with [[...]] headers: each element the two share
// edited as the overlay's replacing the base's, the overlay's further
// elements written after the base's last one, the base's further elements
// deleted with their comments.
func (e *tomlEdit) replaceArray(p tomlPath, ba, oa []any) bool {
	els := e.base.arrays[p.enc()]
	if len(els) != len(ba) {
		return e.fail("the array of tables at %s is not all written with headers", p)
	}
	for i := range min(len(ba), len(oa)) {
		bt, ok1 := ba[i].(map[string]any)
		ot, ok2 := oa[i].(map[string]any)
		if !ok1 || !ok2 || !e.merge(p.element(i), bt, ot, true) {
			return e.fail("the element %s cannot be edited in place", p.element(i))
		}
	}
	if len(oa) > len(ba) && !e.appendElements(p, els[len(els)-1], oa[len(ba):], len(ba)) {
		return false
	}
	for _, el := range els[min(len(oa), len(els)):] {
		e.cutElement(el)
	}
	return true
}

// appendElements writes the overlay's elements add of the array of tables
// at p, from position from on, after the element last of the base (the
// array's last, or the one the array goes into) and every table of it,
// with its header's and keys' indentation.
func (e *tomlEdit) appendElements(p tomlPath, last *tomlTable, add []any, from int) bool {
	hdr, ind := e.base.headerIndent(last), e.base.keyIndent(last)
	var b strings.Builder
	for j, v := range add {
		t, ok := v.(map[string]any)
		if !ok {
			return e.fail("the element %s is not a table", p.element(from+j))
		}
		b.WriteString("\n" + hdr + "[[" + dottedKey(p.names()) + "]]\n")
		if !e.writeTable(&b, p.element(from+j), t, hdr, ind) {
			return false
		}
	}
	e.insert(e.base.elementEnd(last), b.String(), true)
	return true
}

// newArray adds an array of tables the base lacks, each element with a
// header of its own: at the end of the text, or inside an element of
// another array of tables, at the end of that element.
func (e *tomlEdit) newArray(p tomlPath, oa []any) bool {
	if p.inElement() {
		el := e.base.tables[p.lastElement().enc()]
		if el == nil {
			return e.fail("the array of tables %s goes into an element the base lacks", p)
		}
		return e.appendElements(p, el, oa, 0)
	}
	for i, v := range oa {
		t, ok := v.(map[string]any)
		if !ok {
			return e.fail("the element %s is not a table", p.element(i))
		}
		var b strings.Builder
		b.WriteString("[[" + dottedKey(p.names()) + "]]\n")
		if !e.writeTable(&b, p.element(i), t, "", e.base.keyUnit()) {
			return false
		}
		e.tables = append(e.tables, e.base.newlines(b.String()))
	}
	return true
}

// remove plans the deletion of the base's key at p, whose value is bv: a
// key-value's lines, an array's elements, a table's section and its keys
// elsewhere, each with the comments directly above it.
func (e *tomlEdit) remove(p tomlPath, bv any) bool {
	d := e.base
	if e.gone == nil {
		e.gone = map[string]bool{}
	}
	e.gone[p.enc()] = true
	switch t, isTable := bv.(map[string]any); {
	case d.values[p.enc()] != nil && d.values[p.enc()].inline:
		return e.fail("the value at %s, inside an inline table, cannot be deleted in place", p)
	case d.values[p.enc()] != nil:
		e.cutValue(d.values[p.enc()])
	case len(d.arrays[p.enc()]) > 0:
		for _, el := range d.arrays[p.enc()] {
			e.cutElement(el)
		}
	case isTable:
		if h := d.tables[p.enc()]; h != nil {
			e.cutTable(h)
		}
		for _, k := range sortedKeys(t) {
			if !e.remove(p.key(k), t[k]) {
				return false
			}
		}
	default:
		return e.fail("the value at %s has no text of its own to delete", p)
	}
	return true
}

// inInline reports whether p lies inside an inline table of the base
// that stays.
func (e *tomlEdit) inInline(p tomlPath) bool {
	for n := len(p) - 1; n > 0; n-- {
		if v := e.base.values[p[:n].enc()]; v != nil && v.table && !e.gone[p[:n].enc()] {
			return true
		}
	}
	return false
}

// cutValue deletes a key-value's lines and the comments directly above
// it.
func (e *tomlEdit) cutValue(v *tomlValue) {
	from := v.first
	for from > 0 && e.base.kind[from-1] == commentLine {
		from--
	}
	e.cutLines(from, v.last+1, false)
}

// cutElement deletes an element of an array of tables: its header with
// the comments directly above it, its section and those of the tables
// below it, wherever they are.
func (e *tomlEdit) cutElement(el *tomlTable) {
	d := e.base
	e.cutLines(d.headStart(el, d.order[el.pos-1]), d.regionEnd(el), true)
	for _, t := range d.scattered(el.path, d.regionLast(el)) {
		e.cutTable(t)
	}
}

// cutTable deletes a table's section, with the comments directly above
// its header.
func (e *tomlEdit) cutTable(t *tomlTable) {
	d := e.base
	end, _ := d.bodyEnd(t)
	e.cutLines(d.headStart(t, d.order[t.pos-1]), end, true)
}

// cutLines deletes lines from to to; with blanks, also the blank lines
// after them (before them, when nothing follows), so that the blank line
// that parted them from what was before parts that from what follows.
func (e *tomlEdit) cutLines(from, to int, blanks bool) {
	d := e.base
	if blanks {
		end := to
		for end < len(d.lines) && d.kind[end] == blankLine {
			end++
		}
		if end < len(d.lines) && strings.TrimSpace(d.src[d.lineStart(end):]) != "" {
			to = end
		} else {
			for from > 0 && d.kind[from-1] == blankLine {
				from--
			}
		}
	}
	e.cuts = append(e.cuts, [2]int{from, to})
}

// apply writes the edits into the base text: values replaced, lines
// deleted (the runs that overlap made one), text put before lines, and
// new tables at the end. why is not empty when two edits overlap.
func (e *tomlEdit) apply() (out, why string) {
	d := e.base
	edits := append([]textEdit{}, e.values...)
	var cuts []textEdit
	for _, c := range joinRuns(e.cuts) {
		cuts = append(cuts, textEdit{start: d.lineStart(c[0]), end: d.lineStart(c[1])})
	}
	for _, in := range e.inserts {
		edits = append(edits, outOfCuts(in, cuts))
	}
	edits = append(edits, cuts...)
	sort.SliceStable(edits, func(i, j int) bool { return editBefore(edits[i], edits[j]) })
	var b strings.Builder
	at := 0
	for _, ed := range edits {
		if ed.start < at {
			return "", "two of its edits overlap (please report this)"
		}
		b.WriteString(d.src[at:ed.start])
		if ed.start == len(d.src) && ed.text != "" && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
			b.WriteString(d.newlines("\n"))
		}
		b.WriteString(ed.text)
		at = ed.end
	}
	b.WriteString(d.src[at:])
	return e.appendTables(b.String()), ""
}

// editBefore orders edits by offset; at one offset, insertions before
// what they replace, and text that is no section before sections.
func editBefore(a, b textEdit) bool {
	switch {
	case a.start != b.start:
		return a.start < b.start
	case (a.end == a.start) != (b.end == b.start):
		return a.end == a.start
	}
	return !a.section && b.section
}

// outOfCuts moves an insertion that falls inside lines deleted to where
// they start: after what stays before them, in the section it goes into
// (the lines deleted around a table's last lines are its, or those of
// tables deleted whole).
func outOfCuts(in textEdit, cuts []textEdit) textEdit {
	for _, c := range cuts {
		if c.start < in.start && in.start < c.end {
			in.start, in.end = c.start, c.start
		}
	}
	return in
}

// joinRuns makes one run of the runs of lines that overlap or touch.
func joinRuns(runs [][2]int) [][2]int {
	sort.Slice(runs, func(i, j int) bool { return runs[i][0] < runs[j][0] })
	var out [][2]int
	for _, r := range runs {
		if k := len(out) - 1; k >= 0 && r[0] <= out[k][1] {
			out[k][1] = max(out[k][1], r[1])
		} else {
			out = append(out, r)
		}
	}
	return out
}

// appendTables writes the new tables at the end of out, after a blank
// line.
func (e *tomlEdit) appendTables(out string) string {
	var b strings.Builder
	b.WriteString(out)
	for _, t := range e.tables {
		s := b.String()
		nl := e.base.newlines("\n")
		if s != "" && !strings.HasSuffix(s, "\n") {
			b.WriteString(nl)
		}
		if s != "" && !strings.HasSuffix(s, "\n\n") && !strings.HasSuffix(s, "\n\r\n") {
			b.WriteString(nl)
		}
		b.WriteString(t)
	}
	return b.String()
}
