package schema

import "sync"

// The tables in zz_builtin.go come from the Kubernetes modules at this
// version (k8s.io v0.X.Y is Kubernetes 1.X.Y), fetched through the Go module
// proxy at generate time; internal/gen says how the answers are decided.
//
//go:generate go run ./internal/gen -version v0.37.2 -o zz_builtin.go -apply ../apply/zz_builtin.go

// Schema maps resources to their root Type. The zero value knows nothing; a
// Schema is read-only once built and safe for concurrent use.
type Schema struct {
	kinds map[kindKey]*Type
	named map[string]*Type
	// shapes holds the field names of each kind, for catching typos
	// (shape.go).
	shapes map[kindKey]Shape
	// rules holds what the values of each kind may be (rule.go).
	rules map[kindKey]*lazyRule
	// base answers what this Schema does not know (the built-in types, for
	// a Schema extended by CRDs).
	base *Schema
}

type kindKey struct{ apiVersion, kind string }

// Lookup returns the root type of resources of this apiVersion ("apps/v1",
// "v1" for the core group) and kind, or nil when the kind is unknown.
func (s *Schema) Lookup(apiVersion, kind string) *Type {
	for ; s != nil; s = s.base {
		if t, ok := s.kinds[kindKey{apiVersion, kind}]; ok {
			return t
		}
	}
	return nil
}

// Named returns a built-in definition by its schema name, e.g.
// "io.k8s.api.core.v1.PodSpec", or nil when there is none or when it holds
// nothing merging needs (no merged list below it).
func (s *Schema) Named(name string) *Type {
	for ; s != nil; s = s.base {
		if t, ok := s.named[name]; ok {
			return t
		}
	}
	return nil
}

var (
	builtinOnce   sync.Once
	builtinSchema *Schema
)

// Builtin returns the schema of the built-in Kubernetes types
// (KubernetesVersion). It is built from the generated tables on first use and
// shared: callers must not modify it or its Types.
func Builtin() *Schema {
	builtinOnce.Do(func() { builtinSchema = buildBuiltin() })
	return builtinSchema
}

// The generated tables (zz_builtin.go) are plain static data, so they cost
// nothing at start-up: only the Go compiler reads them.

// tableType is one Type. References are indexes into builtinTypes, where
// index 0 stands for nil (unknown).
type tableType struct {
	name       string // schema name, for Named; "" for an inline type
	fields     []tableField
	elem       uint16
	strategy   ListStrategy
	keys       []string
	defaults   []string // key field, default value, key field, ...
	retainKeys bool
	replaceMap bool
}

type tableField struct {
	name string
	typ  uint16
}

type tableKind struct {
	apiVersion, kind string
	typ              uint16
	shape            uint16 // row of the kind in shapeData (shape.go)
}

// buildBuiltin turns the tables into the Type graph: one allocation for all
// types, one map per struct.
func buildBuiltin() *Schema {
	types := make([]Type, len(builtinTypes))
	ref := func(i uint16) *Type {
		if i == 0 {
			return nil
		}
		return &types[i]
	}
	s := &Schema{
		kinds:  make(map[kindKey]*Type, len(builtinKinds)),
		named:  make(map[string]*Type, builtinNamed),
		shapes: make(map[kindKey]Shape, len(builtinKinds)),
	}
	for i := 1; i < len(builtinTypes); i++ {
		row, t := &builtinTypes[i], &types[i]
		row.fill(t, ref)
		if row.name != "" {
			s.named[row.name] = t
		}
	}
	for _, k := range builtinKinds {
		s.kinds[kindKey{k.apiVersion, k.kind}] = ref(k.typ)
		s.shapes[kindKey{k.apiVersion, k.kind}] = Shape{row: k.shape}
	}
	return s
}

// fill makes t the Type of the row, ref turning its references into Types.
func (row *tableType) fill(t *Type, ref func(uint16) *Type) {
	if len(row.fields) > 0 {
		t.Fields = make(map[string]*Type, len(row.fields))
		for _, f := range row.fields {
			t.Fields[f.name] = ref(f.typ)
		}
	}
	t.Elem = ref(row.elem)
	t.Strategy = row.strategy
	t.Keys = row.keys
	if len(row.defaults) > 0 {
		t.KeyDefaults = make(map[string]string, len(row.defaults)/2)
		for j := 0; j+1 < len(row.defaults); j += 2 {
			t.KeyDefaults[row.defaults[j]] = row.defaults[j+1]
		}
	}
	t.RetainKeys = row.retainKeys
	t.ReplaceMap = row.replaceMap
}
