package apply

import (
	"sync"

	smd "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// The tables in zz_builtin.go are the structured-merge schema that
// client-go's apply configurations carry (the types the API server merges
// an applied configuration with), generated with package schema's tables
// by its internal/gen. They are static data: nothing is read or parsed at
// start-up, and the schema is built from them on first use.

// namedType is a named type of the tables and the offset of its row.
type namedType struct {
	name string
	row  uint16
}

// kindType is a built-in kind and its named type (an index of applyNamed).
type kindType struct {
	apiVersion, kind string
	typ              uint16
}

var (
	builtinOnce   sync.Once
	builtinSchema *Schema
)

// Builtin is the schema of the built-in kinds (Kubernetes
// schema.KubernetesVersion). It is built on first use and shared.
func Builtin() *Schema {
	builtinOnce.Do(func() { builtinSchema = decodeBuiltin() })
	return builtinSchema
}

// decodeBuiltin turns the tables into a structured-merge schema.
func decodeBuiltin() *Schema {
	types := make([]smd.TypeDef, len(applyNamed))
	for i, n := range applyNamed {
		types[i] = smd.TypeDef{Name: n.name, Atom: decodeAtom(int(n.row))}
	}
	s := &Schema{smd: &smd.Schema{Types: types}, kinds: make(map[gvk]string, len(applyKinds))}
	for _, k := range applyKinds {
		s.kinds[gvk{k.apiVersion, k.kind}] = applyNamed[k.typ].name
	}
	return s
}

// Row words (internal/gen's apply.go says how rows are laid out).
const (
	scalarBits = 7
	hasList    = 1 << 3
	hasMap     = 1 << 4
	isRef      = 1 << 5
	relShift   = 6
	hasDefault = 1 << 15
)

var (
	scalars       = [...]smd.Scalar{"", smd.String, smd.Numeric, smd.Boolean, smd.Untyped}
	relationships = [...]smd.ElementRelationship{"", smd.Atomic, smd.Associative, smd.Separable}
)

// decodeAtom decodes the row at offset off.
func decodeAtom(off int) smd.Atom {
	head := applyData[off]
	var a smd.Atom
	if s := scalars[head&scalarBits]; s != "" {
		a.Scalar = &s
	}
	off++
	if head&hasList != 0 {
		a.List, off = decodeList(off)
	}
	if head&hasMap != 0 {
		a.Map = decodeMap(off)
	}
	return a
}

func decodeList(off int) (*smd.List, int) {
	head := applyData[off]
	l := &smd.List{ElementRelationship: relationships[head&3], ElementType: decodeRef(applyData[off+1])}
	off += 2
	for range head >> 2 {
		l.Keys = append(l.Keys, schema.FieldName(applyData[off]))
		off++
	}
	return l, off
}

func decodeMap(off int) *smd.Map {
	head := applyData[off]
	m := &smd.Map{ElementRelationship: relationships[head&3]}
	off++
	if head&(1<<2) != 0 {
		m.ElementType = decodeRef(applyData[off])
		off++
	}
	n := int(head >> 3)
	m.Fields = make([]smd.StructField, n)
	for i := range n {
		name := applyData[off]
		f := smd.StructField{Name: schema.FieldName(name &^ hasDefault), Type: decodeRef(applyData[off+1])}
		off += 2
		if name&hasDefault != 0 {
			f.Default = applyDefaults[applyData[off]]
			off++
		}
		m.Fields[i] = f
	}
	return m
}

// decodeRef decodes a type word: a named type, or an inline row.
func decodeRef(w uint16) smd.TypeRef {
	if int(w) < len(applyNamed) {
		return smd.TypeRef{NamedType: &applyNamed[w].name}
	}
	off := int(w) - len(applyNamed)
	head := applyData[off]
	if head&isRef != 0 {
		rel := relationships[head>>relShift&3]
		return smd.TypeRef{NamedType: &applyNamed[applyData[off+1]].name, ElementRelationship: &rel}
	}
	return smd.TypeRef{Inlined: decodeAtom(off)}
}
