package apply

import smd "sigs.k8s.io/structured-merge-diff/v6/schema"

// Schema is what apply patches are typed with: the built-in kinds, and
// the CRDs a run adds (WithCRDs). It is read-only once built and safe for
// concurrent use.
type Schema struct {
	smd   *smd.Schema
	kinds map[gvk]string // built-in kinds: their named types
	crds  *crdTypes      // nil for the built-in schema
}

type gvk struct{ apiVersion, kind string }

// deduced is the structured-merge schema's type of a value nothing is
// known of: maps merged key by key, lists replaced, as the API server
// merges a custom resource that keeps unknown fields.
const deduced = "__untyped_deduced_"

// Type is the type an apply patch merges with: a resource's, a PodSpec's,
// a container's. The zero Type is deduced (nothing known).
type Type struct {
	schema *smd.Schema
	ref    smd.TypeRef
	// what names it in messages: "apps/v1 Deployment", "PodSpec".
	what string
	// secret says the values are a Secret's: messages show none.
	secret bool
}

// Secret is t for values that are secret (a Secret's, or held in one):
// messages then show none of them.
func (t Type) Secret(secret bool) Type {
	t.secret = t.secret || secret
	return t
}

// Known says the type comes from a schema, not from the values.
func (t Type) Known() bool {
	return t.schema != nil && !(t.ref.NamedType != nil && *t.ref.NamedType == deduced)
}

// For is the type of resources of an apiVersion and kind: a built-in
// kind's, a CRD's (WithCRDs), or deduced from the values when neither
// knows it. The error is a CRD's schema that cannot be read.
func (s *Schema) For(apiVersion, kind string) (Type, error) {
	what := apiVersion + " " + kind
	if name, ok := Builtin().kinds[gvk{apiVersion, kind}]; ok {
		t := s.named(name, what)
		t.secret = apiVersion == "v1" && kind == "Secret"
		return t, nil
	}
	if s.crds != nil {
		if t, ok, err := s.crds.typeOf(apiVersion, kind); ok || err != nil {
			t.what = what
			return t, err
		}
	}
	return s.named(deduced, what), nil
}

// Named is a built-in type by its schema name
// ("io.k8s.api.core.v1.PodSpec"), which messages call what; deduced when
// there is none.
func (s *Schema) Named(name, what string) Type {
	if _, ok := Builtin().smd.FindNamedType(name); !ok {
		name = deduced
	}
	return s.named(name, what)
}

func (s *Schema) named(name, what string) Type {
	b := Builtin().smd
	return Type{schema: b, ref: smd.TypeRef{NamedType: &name}, what: what}
}
