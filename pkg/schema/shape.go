package schema

import (
	"sort"
	"strings"
)

// A Shape says which fields a node of a resource may have: enough to catch
// a misspelled field in a patch (replica: 3, imagePullPolice), which the API
// server would only reject at apply time, far away, or silently drop.
//
// The built-in shapes live in static tables (shapeNames, shapeData in
// zz_builtin.go, generated): a built-in Shape is an offset into them and
// costs nothing until used. CRD shapes come from openAPIV3Schema
// (crdshape.go). The zero Shape is "not checked": scalars, untyped values,
// objects that preserve unknown fields, anything the schema leaves open.
type Shape struct {
	row uint16    // built-in: offset of the row in shapeData; 0: see crd
	crd *crdShape // a CRD's shape; nil with row 0: not checked
}

// ShapeKind is what a Shape describes.
type ShapeKind uint8

const (
	// Unchecked means anything goes.
	Unchecked ShapeKind = iota
	// Object is a map with a closed set of fields (Names).
	Object
	// Map is a map with arbitrary keys whose values have the Elem shape
	// (labels, data, nodeSelector...).
	Map
	// List is a list whose elements have the Elem shape.
	List
)

// crdShape is a Shape read from a CRD schema.
type crdShape struct {
	kind   ShapeKind
	fields map[string]Shape
	names  []string // sorted
	elem   Shape
}

// Shape returns the shape of resources of this apiVersion and kind, or the
// zero (unchecked) Shape when the kind is unknown.
func (s *Schema) Shape(apiVersion, kind string) Shape {
	for ; s != nil; s = s.base {
		if sh, ok := s.shapes[kindKey{apiVersion, kind}]; ok {
			return sh
		}
		if _, ok := s.kinds[kindKey{apiVersion, kind}]; ok {
			return Shape{} // known to merging, but no field names
		}
	}
	return Shape{}
}

// Kind says what the Shape describes.
func (sh Shape) Kind() ShapeKind {
	if sh.crd != nil {
		return sh.crd.kind
	}
	if sh.row == 0 {
		return Unchecked
	}
	return ShapeKind(shapeData[sh.row] & 3)
}

// Field returns the shape of a field and whether the field exists: false
// only for an Object without that field. A Map's fields all have its Elem
// shape; an Unchecked shape has every field, unchecked.
func (sh Shape) Field(name string) (Shape, bool) {
	switch sh.Kind() {
	case Object:
		if sh.crd != nil {
			f, ok := sh.crd.fields[name]
			return f, ok
		}
		n := int(shapeData[sh.row] >> 2)
		pairs := shapeData[int(sh.row)+1 : int(sh.row)+1+2*n]
		i := sort.Search(n, func(i int) bool { return shapeName(pairs[2*i]) >= name })
		if i < n && shapeName(pairs[2*i]) == name {
			return Shape{row: pairs[2*i+1]}, true
		}
		return Shape{}, false
	case Map:
		return sh.Elem(), true
	}
	return Shape{}, true
}

// Elem returns the shape of a List's elements or a Map's values.
func (sh Shape) Elem() Shape {
	if sh.crd != nil {
		return sh.crd.elem
	}
	switch sh.Kind() {
	case Map, List:
		return Shape{row: shapeData[sh.row+1]}
	}
	return Shape{}
}

// Names returns the fields of an Object, sorted; nil for other shapes.
func (sh Shape) Names() []string {
	if sh.Kind() != Object {
		return nil
	}
	if sh.crd != nil {
		return sh.crd.names
	}
	n := int(shapeData[sh.row] >> 2)
	names := make([]string, n)
	for i := range n {
		names[i] = shapeName(shapeData[int(sh.row)+1+2*i])
	}
	return names
}

// FieldName is name i of the built-in types' field names, sorted: the
// names package apply's generated tables index (internal/gen writes both).
func FieldName(i uint16) string { return shapeName(i) }

func shapeName(i uint16) string {
	start := uint16(0)
	if i > 0 {
		start = shapeNameEnds[i-1]
	}
	return shapeNames[start:shapeNameEnds[i]]
}

// String describes the shape briefly, for tests and debugging.
func (sh Shape) String() string {
	switch sh.Kind() {
	case Object:
		return "{" + strings.Join(sh.Names(), " ") + "}"
	case Map:
		return "map[" + sh.Elem().String() + "]"
	case List:
		return "[" + sh.Elem().String() + "]"
	}
	return "*"
}
