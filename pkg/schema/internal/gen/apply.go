package main

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// The apply tables (package apply's zz_builtin.go): the structured-merge
// schema itself, as the API server merges an applied configuration with
// it — not the merge metadata above, which strategic merge's struct tags
// amend and which drops what merges as "unknown". Every type reachable
// from a kind is kept, field by field, so that an apply patch is typed and
// checked as the server types it. The form is the shape tables': names are
// indexes of their name table (package schema's FieldName), rows are one
// []uint16:
//
//	word 0:  scalar (0 none, 1 string, 2 numeric, 3 boolean, 4 untyped)
//	         | list<<3 | map<<4 | ref<<5 | relationship<<6
//	ref:     the named type (word 0's relationship overrides its own)
//	list:    relationship | keys<<2, the element type, the key names
//	map:     relationship | hasElem<<2 | fields<<3, [the element type],
//	         then per field: name (| 1<<15 when a default follows), type,
//	         [the default's index in applyDefaults]
//
// A relationship is 0 (unset), 1 atomic, 2 associative, 3 separable. A
// type word below the number of named types is that named type; above,
// an inline row at the word less that number. Only the defaults of key
// fields are kept: the only ones merging reads (an element without its
// key takes it).

const (
	applyList    = 1 << 3
	applyMap     = 1 << 4
	applyRef     = 1 << 5
	applyRelBits = 6
	applyHasDef  = 1 << 15
)

var applyScalars = map[string]uint16{"": 0, "string": 1, "numeric": 2, "boolean": 3, "untyped": 4}

var applyRelationships = map[string]uint16{"": 0, "atomic": 1, "associative": 2, "separable": 3}

// untypedNames are the structured-merge schema's own types for values of
// any type, always kept: what a kind without a schema merges as.
var untypedNames = []string{"__untyped_atomic_", "__untyped_deduced_"}

type applyTables struct {
	defs     map[string]smdDef
	named    []string       // sorted
	namedIx  map[string]int // name → index in named
	rows     []int          // data offset of each named type's row
	data     []uint16
	nameIx   map[string]int // the shape tables' index of a name
	dedup    map[string]int // inline row content → ref word
	keyed    map[string]map[string]bool
	defaults []any
	errs     []string
}

// applyTables collects the types reachable from the kinds and encodes them.
func (g *graph) applyTables(names map[string]int) (*applyTables, error) {
	t := &applyTables{defs: g.defs, namedIx: map[string]int{}, nameIx: names,
		dedup: map[string]int{}, keyed: map[string]map[string]bool{}}
	roots := slices.Clone(untypedNames)
	for _, k := range g.kinds {
		roots = append(roots, k.typeName)
	}
	seen := map[string]bool{}
	for _, r := range roots {
		t.reach(smdRef{NamedType: r}, seen)
	}
	t.named = slices.Sorted(maps.Keys(seen))
	for i, n := range t.named {
		t.namedIx[n] = i
	}
	t.rows = make([]int, len(t.named))
	for i, n := range t.named {
		row := t.atom(t.defs[n].smdRef, n) // its inline rows go first
		t.rows[i] = len(t.data)
		t.data = append(t.data, row...)
	}
	if len(t.data)+len(t.named) >= 1<<16 || len(names) >= applyHasDef {
		t.errs = append(t.errs, fmt.Sprintf("the apply table outgrew its uint16 words (%d rows, %d names)", len(t.data), len(names)))
	}
	if len(t.errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(t.errs, "\n"))
	}
	return t, nil
}

// reach records the named types r leads to and the key fields of keyed
// lists.
func (t *applyTables) reach(r smdRef, seen map[string]bool) {
	if r.NamedType != "" {
		if seen[r.NamedType] {
			return
		}
		d, ok := t.defs[r.NamedType]
		if !ok {
			t.errs = append(t.errs, "unknown type "+r.NamedType)
			return
		}
		seen[r.NamedType] = true
		r = d.smdRef
	}
	if l := r.List; l != nil {
		for _, k := range l.Keys {
			t.keyField(l.ElementType, k)
		}
		t.reach(l.ElementType, seen)
	}
	if m := r.Map; m != nil {
		for _, f := range m.Fields {
			t.reach(f.Type, seen)
		}
		if m.ElementType != nil {
			t.reach(*m.ElementType, seen)
		}
	}
}

// keyField records that field k of a keyed list's elements is a key.
func (t *applyTables) keyField(elem smdRef, k string) {
	if elem.NamedType == "" {
		t.errs = append(t.errs, fmt.Sprintf("a list keyed by %s whose elements are not a named type", k))
		return
	}
	if t.keyed[elem.NamedType] == nil {
		t.keyed[elem.NamedType] = map[string]bool{}
	}
	t.keyed[elem.NamedType][k] = true
}

// atom encodes a type definition: its row's words. owner is the named
// type it defines ("" inline), for the defaults of its key fields.
func (t *applyTables) atom(r smdRef, owner string) []uint16 {
	w := []uint16{applyScalars[r.Scalar]}
	if r.List != nil {
		w[0] |= applyList
		w = append(w, applyRelationships[r.List.Relationship]|uint16(len(r.List.Keys))<<2, t.ref(r.List.ElementType))
		for _, k := range r.List.Keys {
			w = append(w, uint16(t.nameIndex(k)))
		}
	}
	if r.Map != nil {
		w[0] |= applyMap
		w = append(w, t.mapWords(r.Map, owner)...)
	}
	return w
}

func (t *applyTables) mapWords(m *smdMap, owner string) []uint16 {
	head := applyRelationships[m.Relationship] | uint16(len(m.Fields))<<3
	w := []uint16{head}
	if m.ElementType != nil {
		w[0] |= 1 << 2
		w = append(w, t.ref(*m.ElementType))
	}
	for _, f := range m.Fields {
		name := uint16(t.nameIndex(f.Name))
		if f.Default != nil && t.keyed[owner][f.Name] {
			w = append(w, name|applyHasDef, t.ref(f.Type), t.defaultIndex(f.Default))
			continue
		}
		w = append(w, name, t.ref(f.Type))
	}
	return w
}

// defaultIndex is a default's index in applyDefaults, shared by equal
// defaults.
func (t *applyTables) defaultIndex(v any) uint16 {
	lit := goLiteral(v)
	for i, d := range t.defaults {
		if goLiteral(d) == lit {
			return uint16(i)
		}
	}
	t.defaults = append(t.defaults, v)
	return uint16(len(t.defaults) - 1)
}

// ref is the word of a type reference: a named type's index, or an inline
// row's (shared with equal rows).
func (t *applyTables) ref(r smdRef) uint16 {
	var row []uint16
	switch {
	case r.NamedType != "" && r.Relationship == "":
		return uint16(t.namedIx[r.NamedType])
	case r.NamedType != "":
		row = []uint16{applyRef | applyRelationships[r.Relationship]<<applyRelBits, uint16(t.namedIx[r.NamedType])}
	default:
		row = t.atom(r, "")
	}
	key := fmt.Sprint(row)
	if w, ok := t.dedup[key]; ok {
		return uint16(w)
	}
	w := len(t.named) + len(t.data)
	t.data = append(t.data, row...)
	t.dedup[key] = w
	return uint16(w)
}

// nameIndex is a name's index in the shape tables' names.
func (t *applyTables) nameIndex(n string) int {
	i, ok := t.nameIx[n]
	if !ok {
		t.errs = append(t.errs, fmt.Sprintf("the name %q is not in the shape tables", n))
	}
	return i
}

// emitApply writes package apply's generated file.
func (g *graph) emitApply(version string, sources []string) ([]byte, error) {
	g.sortKinds()
	shapes, err := g.shapes()
	if err != nil {
		return nil, err
	}
	t, err := g.applyTables(shapes.index)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by \"go run ./internal/gen -version %s\" (in package schema); DO NOT EDIT.\n", version)
	fmt.Fprintf(&b, "// Sources: %s.\n\n", strings.Join(sources, ", "))
	b.WriteString("package apply\n\n")
	b.WriteString("// applyNamed are the named types, sorted, with the offsets of their rows.\n")
	b.WriteString("var applyNamed = [...]namedType{\n")
	for i, n := range t.named {
		fmt.Fprintf(&b, "\t{%q, %d},\n", n, t.rows[i])
	}
	b.WriteString("}\n\n// applyKinds are the built-in kinds and their named types.\nvar applyKinds = [...]kindType{\n")
	for _, k := range g.kinds {
		fmt.Fprintf(&b, "\t{%q, %q, %d},\n", k.apiVersion, k.kind, t.namedIx[k.typeName])
	}
	b.WriteString("}\n\n// applyDefaults are the defaults of key fields.\nvar applyDefaults = [...]any{")
	for _, d := range t.defaults {
		b.WriteString(goLiteral(d) + ", ")
	}
	b.WriteString("}\n\n// applyData holds the rows (see internal/gen's apply.go).\nvar applyData = [...]uint16{")
	writeNumbers(&b, t.data)
	return b.Bytes(), nil
}

func nameEnds(names []string) []int {
	ends := make([]int, len(names))
	end := 0
	for i, k := range names {
		end += len(k)
		ends[i] = end
	}
	return ends
}

// goLiteral spells a default as a Go constant of the type the schema's
// YAML reader gives it.
func goLiteral(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case int:
		return fmt.Sprintf("int(%d)", v)
	case float64:
		return fmt.Sprintf("float64(%s)", strconv.FormatFloat(v, 'g', -1, 64))
	}
	return fmt.Sprintf("%q /* %T */", fmt.Sprint(v), v)
}
