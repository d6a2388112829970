package valuemerge

import "strings"

// Where new TOML goes, and how it is indented. A table's section runs from
// its header to the next one; the table owns its key-values and, when its
// keys are indented deeper than its header (InfluxDB's sample config), the
// comment lines indented as deep (settings commented out). Blank lines and
// the other comments, such as the banner above the next header, are no
// table's. A new key goes after the last line its table owns, indented as
// its keys; a new root key, in a root that owns no line, goes after the
// comments that open the text, not under the first table's banner.

// keyIndent is the indentation of table t's keys: that of its first
// key-value; in a section without one, that of its first comment when it
// is indented deeper than the header; else the header's and the
// document's unit. Worked out once per table.
func (d *tomlDoc) keyIndent(t *tomlTable) string {
	if t.keys == nil {
		ind := d.sectionIndent(t)
		t.keys = &ind
	}
	return *t.keys
}

// sectionIndent is keyIndent, worked out.
func (d *tomlDoc) sectionIndent(t *tomlTable) string {
	hdr := d.headerIndent(t)
	for l := t.header + 1; l < t.next; l++ {
		if d.kind[l] == valueLine {
			return d.indent(l)
		}
	}
	for l := t.header + 1; l < t.next; l++ {
		if d.kind[l] != commentLine {
			continue
		}
		if ind := d.indent(l); len(ind) > len(hdr) {
			return ind
		}
		break
	}
	if t.header < 0 {
		return ""
	}
	return hdr + d.keyUnit()
}

// headerIndent is the indentation of t's header ("" for the root).
func (d *tomlDoc) headerIndent(t *tomlTable) string {
	if t.header < 0 {
		return ""
	}
	return d.indent(t.header)
}

// keyUnit is how much deeper than its header a table's keys are indented,
// as the first table with a header and a key-value shows.
func (d *tomlDoc) keyUnit() string {
	if d.unit != nil {
		return *d.unit
	}
	unit := ""
	for _, t := range d.order[1:] {
		if l := d.firstValue(t); l >= 0 {
			hdr, ind := d.indent(t.header), d.indent(l)
			if strings.HasPrefix(ind, hdr) {
				unit = ind[len(hdr):]
			}
			break
		}
	}
	d.unit = &unit
	return unit
}

// firstValue is the first line of t's first key-value, -1 if it has none.
func (d *tomlDoc) firstValue(t *tomlTable) int {
	for l := t.header + 1; l < t.next; l++ {
		if d.kind[l] == valueLine {
			return l
		}
	}
	return -1
}

// bodyEnd is the line after the last line t owns; false when it owns none
// (the line after its header). Worked out once per table.
func (d *tomlDoc) bodyEnd(t *tomlTable) (int, bool) {
	if t.body == 0 {
		end, owned := d.ownedLines(t)
		t.body, t.owned = end+1, owned
	}
	return t.body - 1, t.owned
}

// ownedLines is bodyEnd, worked out.
func (d *tomlDoc) ownedLines(t *tomlTable) (int, bool) {
	ind := d.keyIndent(t)
	deep := len(ind) > len(d.headerIndent(t))
	end, owned := t.header+1, false
	for l := t.header + 1; l < t.next; l++ {
		switch {
		case d.kind[l] == valueLine, d.kind[l] == commentLine && deep && len(d.indent(l)) >= len(ind):
			end, owned = l+1, true
		}
	}
	return end, owned
}

// insertLine is the line where a new key of t goes: after the last line
// it owns; for a root that owns none, after the comments that open the
// text (rootInsert).
func (d *tomlDoc) insertLine(t *tomlTable) int {
	end, owned := d.bodyEnd(t)
	if owned || t.header >= 0 {
		return end
	}
	return d.rootInsert()
}

// rootInsert is where a new key goes in a root that owns no line: before
// the first header and the comments directly above it, and when comment
// paragraphs stand apart above those, after the last but one of them (the
// last is the first table's banner) or after the only one (the text's
// opening comment). In a text without a header, at its end.
func (d *tomlDoc) rootInsert() int {
	if len(d.order) == 1 {
		return len(d.lines)
	}
	top := d.order[1].header
	for top > 0 && d.kind[top-1] == commentLine {
		top--
	}
	var ends []int // the line after each paragraph above top
	for l := 0; l < top; l++ {
		if d.kind[l] == commentLine && (l+1 == top || d.kind[l+1] != commentLine) {
			ends = append(ends, l+1)
		}
	}
	switch len(ends) {
	case 0:
		return top
	case 1:
		return ends[0]
	}
	return ends[len(ends)-2]
}

// headStart is the first line of the comments directly above t's header
// that the table before it does not own: they are the header's.
func (d *tomlDoc) headStart(t *tomlTable, before *tomlTable) int {
	floor, _ := d.bodyEnd(before)
	l := t.header
	for l > floor && d.kind[l-1] == commentLine {
		l--
	}
	return l
}

// regionEnd is the line after the last line t and the tables below it
// that follow its header own: where an array of tables' element ends.
func (d *tomlDoc) regionEnd(t *tomlTable) int {
	end, _ := d.bodyEnd(d.order[d.regionLast(t)])
	return end
}

// regionLast is the position of the last table of the run of tables below
// t that follows its header.
func (d *tomlDoc) regionLast(t *tomlTable) int {
	last := t.pos
	for last+1 < len(d.order) && below(d.order[last+1].path, t.path) {
		last++
	}
	return last
}

// elementEnd is the line after the last line of element el of an array of
// tables and of its tables, wherever they are: where a new element, or a
// new array of tables inside el, goes (before a table of el that came
// after it, the new header would take that table).
func (d *tomlDoc) elementEnd(el *tomlTable) int {
	if s := d.scattered(el.path, d.regionLast(el)); len(s) > 0 {
		end, _ := d.bodyEnd(s[len(s)-1])
		return end
	}
	return d.regionEnd(el)
}

// scattered lists the tables below path that come after the position
// from, past other tables: TOML lets a table of an array's last element
// come anywhere after it ([[a]], [b], [a.c]).
func (d *tomlDoc) scattered(path string, from int) []*tomlTable {
	var out []*tomlTable
	for _, t := range d.order[from+1:] {
		if below(t.path, path) {
			out = append(out, t)
		}
	}
	return out
}

// below reports whether path lies below table path t.
func below(path, t string) bool {
	return len(path) > len(t) && strings.HasPrefix(path, t) && (path[len(t)] == '\x00' || path[len(t)] == '\x01')
}
