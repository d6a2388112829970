package schema

// ListStrategy says how a patch list combines with the list it patches.
type ListStrategy uint8

const (
	// Replace means the patch list replaces the original (atomic lists, unknown lists).
	Replace ListStrategy = iota
	// MergeByKeys means elements are maps identified by the fields in Keys.
	MergeByKeys
	// Set means elements are scalars; the union is kept, original order first.
	Set
)

func (s ListStrategy) String() string {
	switch s {
	case MergeByKeys:
		return "map"
	case Set:
		return "set"
	}
	return "atomic"
}

// Type describes one node of a resource's schema. Only what merging needs is
// kept: the fields of maps, the element type of lists and maps, and for lists
// the strategy, merge keys and the defaults of key fields.
type Type struct {
	// Fields of a struct-like map, by name.
	Fields map[string]*Type
	// Elem is the element type of a list, or the value type of a map with
	// arbitrary keys (labels, data...).
	Elem *Type
	// Cases give some elements of a list a type other than Elem
	// (ElementFor; declared merge keys make them: declare.go).
	Cases []Case
	// Strategy, Keys and KeyDefaults apply when the node is a list.
	Strategy ListStrategy
	// Keys are the merge key fields, in order (containerPort, protocol).
	Keys []string
	// KeyDefaults holds the API default of a key field, where the API defines
	// one (protocol: TCP). A key field missing from an element takes it.
	KeyDefaults map[string]string
	// RetainKeys marks a map whose patch strategy is "retainKeys"
	// (a union such as a Deployment's strategy or a volume source).
	RetainKeys bool
	// ReplaceMap marks a map that a patch replaces as a whole instead of
	// merging into it (patchStrategy "replace": a PodDisruptionBudget's
	// selector).
	ReplaceMap bool
}

// Field returns the type of a map's field, or nil when unknown.
func (t *Type) Field(name string) *Type {
	if t == nil {
		return nil
	}
	if f, ok := t.Fields[name]; ok {
		return f
	}
	return t.Elem
}

// HasField reports whether a struct-like map declares the field (whose
// type may be unknown).
func (t *Type) HasField(name string) bool {
	if t == nil {
		return false
	}
	_, ok := t.Fields[name]
	return ok
}

// Element returns the type of a list's elements, or nil when unknown;
// ElementFor tells an element's own when the list has Cases.
func (t *Type) Element() *Type {
	if t == nil {
		return nil
	}
	return t.Elem
}

// List returns the strategy and merge keys of a list node. Without a schema a
// list is replaced.
func (t *Type) List() (ListStrategy, []string) {
	if t == nil {
		return Replace, nil
	}
	return t.Strategy, t.Keys
}

// KeyDefault returns the API default of a merge-key field, if any.
func (t *Type) KeyDefault(field string) (string, bool) {
	if t == nil {
		return "", false
	}
	v, ok := t.KeyDefaults[field]
	return v, ok
}
