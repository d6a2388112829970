package main

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// The shape tables: the field names of every built-in type reachable from a
// kind, so that a patch field a kind does not have can be caught. They hold
// nothing merging needs and are kept apart from the merge tables, in the
// most compact form static data allows: one string of all field names, and
// one []uint16 of rows. A row is
//
//	object: shapeObject | n<<2, then n pairs (field name index, row), sorted by name
//	map:    shapeMap, row of the values
//	list:   shapeList, row of the elements
//
// and a row is referred to by its offset in the table; offset 0 is a
// placeholder meaning "not checked" (scalars, untyped values, anything the
// schema leaves open).
const (
	shapeUnchecked = iota
	shapeObject
	shapeMap
	shapeList
)

type shapeTables struct {
	data  []uint16
	names []string       // sorted
	index map[string]int // name → position in names
	rows  map[*node]int  // node → offset; 0: not checked
	dedup map[string]int // row content → offset, to share equal rows
	kinds []int          // shape offset of each kind, in g.kinds order
}

// shapeOf classifies a node as the shape tables see it.
func shapeOf(n *node) int {
	n = n.origin()
	switch {
	case n == nil || strings.HasPrefix(n.name, "__untyped"):
		return shapeUnchecked
	case n.isList:
		return shapeList
	case len(n.fields) > 0 && n.elem == nil:
		return shapeObject
	case len(n.fields) == 0 && n.elem != nil:
		return shapeMap
	}
	// no fields and no value type, or both: an open map
	return shapeUnchecked
}

func (g *graph) shapes() (*shapeTables, error) {
	t := &shapeTables{data: []uint16{0}, index: map[string]int{}, rows: map[*node]int{}, dedup: map[string]int{}}
	if err := t.nameTable(g.all); err != nil {
		return nil, err
	}
	for _, k := range g.kinds {
		off, err := t.row(g.named[k.typeName])
		if err != nil {
			return nil, err
		}
		t.kinds = append(t.kinds, off)
	}
	return t, nil
}

// nameTable collects every field name, sorted, for the name table.
func (t *shapeTables) nameTable(all []*node) error {
	seen := map[string]bool{}
	for _, n := range all {
		for k := range n.fields {
			if !seen[k] {
				seen[k] = true
				t.names = append(t.names, k)
			}
		}
	}
	sort.Strings(t.names)
	for i, k := range t.names {
		t.index[k] = i
	}
	if len(t.names) >= 1<<16 {
		return fmt.Errorf("%d field names do not fit the uint16 indexes of the shape table", len(t.names))
	}
	return nil
}

// row returns the offset of n's row, writing it (and the rows below it)
// first.
func (t *shapeTables) row(n *node) (int, error) {
	n = n.origin()
	kind := shapeOf(n)
	if kind == shapeUnchecked {
		return 0, nil
	}
	if off, ok := t.rows[n]; ok {
		return off, nil
	}
	if kind == shapeObject {
		return t.objectRow(n)
	}
	return t.elemRow(n, kind)
}

// objectRow writes an object's row: its fields, by name, and their rows.
// Recursive types (JSONSchemaProps) reserve their row before their
// children are written, so that a type inside itself refers to it.
func (t *shapeTables) objectRow(n *node) (int, error) {
	keys := slices.Sorted(maps.Keys(n.fields))
	if len(keys) >= 1<<14 {
		return 0, fmt.Errorf("%s: too many fields", n.name)
	}
	off := len(t.data)
	t.rows[n] = off
	t.data = append(t.data, make([]uint16, 1+2*len(keys))...)
	t.data[off] = uint16(shapeObject | len(keys)<<2)
	for i, k := range keys {
		child, err := t.row(n.fields[k])
		if err != nil {
			return 0, err
		}
		t.data[off+1+2*i] = uint16(t.index[k])
		t.data[off+2+2*i] = uint16(child)
	}
	return off, t.check()
}

// elemRow writes the row of a map or list: the row of its values. Equal
// rows are written once; a list of scalars has none, nothing to check below.
func (t *shapeTables) elemRow(n *node, kind int) (int, error) {
	child, err := t.row(n.elem)
	if err != nil {
		return 0, err
	}
	if child == 0 && kind == shapeList {
		t.rows[n] = 0
		return 0, nil
	}
	body := []uint16{uint16(kind), uint16(child)}
	key := fmt.Sprint(body)
	if off, ok := t.dedup[key]; ok {
		t.rows[n] = off
		return off, nil
	}
	off := len(t.data)
	t.data = append(t.data, body...)
	t.rows[n], t.dedup[key] = off, off
	return off, t.check()
}

func (t *shapeTables) check() error {
	if len(t.data) >= 1<<16 {
		return fmt.Errorf("the shape table outgrew the uint16 offsets (%d entries)", len(t.data))
	}
	return nil
}

// write emits the shape tables.
func (t *shapeTables) write(b *bytes.Buffer) {
	b.WriteString("\n// shapeNames holds every field name of the built-in types, sorted and\n")
	b.WriteString("// concatenated; shapeNameEnds[i] is where name i ends.\n")
	b.WriteString("const shapeNames = \"\" +\n")
	writeNameLines(b, t.names)
	b.WriteString("\nvar shapeNameEnds = [...]uint16{")
	writeNumbers(b, nameEnds(t.names))
	b.WriteString("\n// shapeData holds the rows of the shape table (see shape.go).\n")
	b.WriteString("var shapeData = [...]uint16{")
	writeNumbers(b, t.data)
}

// writeNameLines writes names as string literals of about 90 characters
// joined by +.
func writeNameLines(b *bytes.Buffer, names []string) {
	line := ""
	for i, k := range names {
		line += k
		last := i == len(names)-1
		if len(line) > 90 || last {
			end := " +\n"
			if last {
				end = "\n"
			}
			fmt.Fprintf(b, "\t%q%s", line, end)
			line = ""
		}
	}
}

// writeNumbers writes the elements of an array literal, sixteen a line,
// and its closing brace.
func writeNumbers[T int | uint16](b *bytes.Buffer, values []T) {
	for i, v := range values {
		if i%16 == 0 {
			b.WriteString("\n\t")
		} else {
			b.WriteString(" ")
		}
		fmt.Fprintf(b, "%d,", v)
	}
	b.WriteString("\n}\n")
}
