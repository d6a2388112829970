package apply

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	smd "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// WithCRDs is s knowing the kinds the CustomResourceDefinitions among
// items define (apiextensions.k8s.io/v1, served versions), typed as the
// API server types their resources: from the version's openAPIV3Schema,
// metadata the built-in ObjectMeta, list and map types as its
// x-kubernetes- extensions say. A built-in kind stays the built-in's; of
// two CRDs defining a kind the first counts; a CRD that cannot be read is
// left out (package schema reports it). A kind's schema is converted when
// a patch first needs it.
func (s *Schema) WithCRDs(items []*yaml.RNode) *Schema {
	c := &crdTypes{versions: map[gvk]crdVersion{}, done: map[gvk]crdDone{}}
	for _, it := range items {
		if !schema.IsCRD(it) {
			continue
		}
		vs, err := schema.CRDVersions(it.YNode())
		if err != nil {
			continue
		}
		for _, v := range vs {
			if _, dup := c.versions[gvk{v.APIVersion, v.Kind}]; !dup {
				c.versions[gvk{v.APIVersion, v.Kind}] = crdVersion{v, schema.CRDName(it)}
			}
		}
	}
	if len(c.versions) == 0 {
		return s
	}
	return &Schema{smd: s.smd, kinds: s.kinds, crds: c}
}

// crdTypes are the kinds of a run's CRDs, converted on first use.
type crdTypes struct {
	mu       sync.Mutex
	versions map[gvk]crdVersion
	done     map[gvk]crdDone
}

type crdVersion struct {
	schema.CRDVersion
	crd string // its CRD's name
}

type crdDone struct {
	t   Type
	err error
}

// typeOf is the type of a CRD's kind; false when no CRD defines it.
func (c *crdTypes) typeOf(apiVersion, kind string) (Type, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := gvk{apiVersion, kind}
	if d, ok := c.done[key]; ok {
		return d.t, true, d.err
	}
	v, ok := c.versions[key]
	if !ok {
		return Type{}, false, nil
	}
	t, err := v.convert()
	if err != nil {
		err = fmt.Errorf("CustomResourceDefinition %q: %s.schema.openAPIV3Schema: %v", v.crd, v.Path, err)
	}
	c.done[key] = crdDone{t, err}
	return t, true, err
}

// objectMeta is the built-in type of every resource's metadata.
const objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// convert types a CRD version as the API server does: its structural
// schema, value validations (format, enum...) left out, as OpenAPI with
// apiVersion, kind and metadata added at the root and in each embedded
// resource (apiextensions-apiserver's builder), converted as kube-openapi's
// schemaconv converts OpenAPI for managedfields.NewTypeConverter; the
// built-in types beside it. TestDifferentialCRDs holds it to that path.
func (v crdVersion) convert() (Type, error) {
	if v.Schema == nil {
		return Builtin().named(deduced, ""), nil
	}
	root, err := converter{}.atom(v.Schema, false, true, 0)
	if err != nil {
		return Type{}, err
	}
	name := modelName(v.APIVersion, v.Kind)
	return Type{schema: withBuiltin([]smd.TypeDef{{Name: name, Atom: root}}), ref: smd.TypeRef{NamedType: &name}}, nil
}

// converter turns an openAPIV3Schema into structured-merge types.
type converter struct{}

// maxSchemaDepth bounds a schema's nesting: YAML aliases can put a schema
// inside itself.
const maxSchemaDepth = 100

var (
	untyped = smd.Untyped
	atomic  = "__untyped_atomic_"
	str     = smd.String
	numeric = smd.Numeric
	boolean = smd.Boolean
)

// atom converts a schema node. preserve is inherited from above
// (x-kubernetes-preserve-unknown-fields); kube says the node is a resource
// (the root, an embedded resource), which has apiVersion, kind and
// metadata.
func (c converter) atom(n *yaml.Node, preserve, kube bool, depth int) (smd.Atom, error) {
	n = yamltree.Resolve(n)
	if depth > maxSchemaDepth || n == nil || n.Kind != yaml.MappingNode {
		return smd.Atom{}, fmt.Errorf("a schema nested more than %d deep (or inside itself), or not a map", maxSchemaDepth)
	}
	preserve = preserve || flag(n, "x-kubernetes-preserve-unknown-fields")
	kube = kube || flag(n, "x-kubernetes-embedded-resource")
	switch typ := text(n, "type"); typ {
	case "":
		l, err := c.list(n, preserve, depth)
		if err != nil {
			return smd.Atom{}, err
		}
		m, err := c.object(n, preserve, kube, depth)
		return smd.Atom{Scalar: &untyped, List: l, Map: m}, err
	case "object":
		m, err := c.object(n, preserve, kube, depth)
		return smd.Atom{Map: m}, err
	case "array":
		l, err := c.list(n, preserve, depth)
		return smd.Atom{List: l}, err
	case "integer", "number":
		return smd.Atom{Scalar: &numeric}, nil
	case "string":
		return smd.Atom{Scalar: &str}, nil
	case "boolean":
		return smd.Atom{Scalar: &boolean}, nil
	default:
		return smd.Atom{}, fmt.Errorf("type: %q is not a type", typ)
	}
}

// object converts an object's properties, its additionalProperties (the
// type of keys it does not name) and x-kubernetes-map-type.
func (c converter) object(n *yaml.Node, preserve, kube bool, depth int) (*smd.Map, error) {
	m := &smd.Map{}
	if props := yamltree.Resolve(yamltree.Lookup(n, "properties")); props != nil && props.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(props.Content); i += 2 {
			f, err := c.field(props.Content[i].Value, props.Content[i+1], preserve, depth)
			if err != nil {
				return nil, err
			}
			m.Fields = append(m.Fields, f)
		}
	}
	if kube {
		m.Fields = withTypeMeta(m.Fields)
	}
	var err error
	if m.ElementType, err = c.additional(n, len(m.Fields), preserve, depth); err != nil {
		return nil, err
	}
	switch t := text(n, "x-kubernetes-map-type"); t {
	case "":
	case "atomic":
		m.ElementRelationship = smd.Atomic
	case "granular":
		m.ElementRelationship = smd.Separable
	default:
		return nil, fmt.Errorf("x-kubernetes-map-type: %q is not atomic or granular", t)
	}
	return m, nil
}

func (c converter) field(name string, n *yaml.Node, preserve bool, depth int) (smd.StructField, error) {
	a, err := c.atom(n, preserve, false, depth+1)
	if err != nil {
		return smd.StructField{}, fmt.Errorf("properties.%s: %w", name, err)
	}
	f := smd.StructField{Name: name, Type: smd.TypeRef{Inlined: a}}
	if d := yamltree.Lookup(yamltree.Resolve(n), "default"); d != nil {
		b, err := yamljson.Encode(d, nil)
		if err == nil {
			f.Default, _, err = decode(b)
		}
		if err != nil {
			return smd.StructField{}, fmt.Errorf("properties.%s.default: %w", name, err)
		}
	}
	return f, nil
}

// withTypeMeta is a resource's fields with apiVersion and kind strings and
// metadata the built-in ObjectMeta, in place of the schema's own.
func withTypeMeta(fields []smd.StructField) []smd.StructField {
	meta := objectMeta
	out := []smd.StructField{{Name: "apiVersion", Type: smd.TypeRef{Inlined: smd.Atom{Scalar: &str}}},
		{Name: "kind", Type: smd.TypeRef{Inlined: smd.Atom{Scalar: &str}}},
		{Name: "metadata", Type: smd.TypeRef{NamedType: &meta}}}
	for _, f := range fields {
		if f.Name != "apiVersion" && f.Name != "kind" && f.Name != "metadata" {
			out = append(out, f)
		}
	}
	return out
}

// additional is the type of the keys an object does not name: its
// additionalProperties' schema; deduced for true, or when there is none and
// the object names no field or keeps unknown fields; none otherwise.
func (c converter) additional(n *yaml.Node, fields int, preserve bool, depth int) (smd.TypeRef, error) {
	a := yamltree.Resolve(yamltree.Lookup(n, "additionalProperties"))
	switch {
	case a == nil && (preserve || fields == 0), a != nil && a.Kind == yaml.ScalarNode && a.Value == "true":
		name := deduced
		return smd.TypeRef{NamedType: &name}, nil
	case a == nil || a.Kind == yaml.ScalarNode:
		return smd.TypeRef{}, nil
	}
	at, err := c.atom(a, preserve, false, depth+1)
	if err != nil {
		return smd.TypeRef{}, fmt.Errorf("additionalProperties: %w", err)
	}
	return smd.TypeRef{Inlined: at}, nil
}

// list converts an array's items and x-kubernetes-list-type (with
// x-kubernetes-list-map-keys).
func (c converter) list(n *yaml.Node, preserve bool, depth int) (*smd.List, error) {
	l := &smd.List{ElementRelationship: smd.Atomic, ElementType: smd.TypeRef{NamedType: &atomic}}
	if items := yamltree.Lookup(n, "items"); items != nil {
		a, err := c.atom(items, preserve, false, depth+1)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		l.ElementType = smd.TypeRef{Inlined: a}
	}
	switch t := text(n, "x-kubernetes-list-type"); t {
	case "", "atomic":
	case "set":
		l.ElementRelationship = smd.Associative
	case "map":
		l.ElementRelationship = smd.Associative
		keys := yamltree.Resolve(yamltree.Lookup(n, "x-kubernetes-list-map-keys"))
		if keys == nil || keys.Kind != yaml.SequenceNode || len(keys.Content) == 0 {
			return nil, errors.New("x-kubernetes-list-type: map needs x-kubernetes-list-map-keys")
		}
		for _, k := range keys.Content {
			l.Keys = append(l.Keys, yamltree.Resolve(k).Value)
		}
	default:
		return nil, fmt.Errorf("x-kubernetes-list-type: %q is not atomic, set or map", t)
	}
	return l, nil
}

// text is a scalar field of a schema node, "" when it has none.
func text(n *yaml.Node, key string) string {
	if v := yamltree.Resolve(yamltree.Lookup(n, key)); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func flag(n *yaml.Node, key string) bool { return text(n, key) == "true" }

// modelName is the API server's name of a kind's definition:
// com.example.v1.Widget for example.com/v1 Widget.
func modelName(apiVersion, kind string) string {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	labels := strings.Split(group, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(append(labels, version, kind), ".")
}

// withBuiltin is a schema of types and the built-in ones (ObjectMeta and
// what it needs; the untyped types schemaconv adds are the built-in's too).
func withBuiltin(types []smd.TypeDef) *smd.Schema {
	b := Builtin().smd
	all := make([]smd.TypeDef, 0, len(types)+len(b.Types))
	for _, t := range types {
		if _, known := b.FindNamedType(t.Name); !known {
			all = append(all, t)
		}
	}
	return &smd.Schema{Types: append(all, b.Types...)}
}
