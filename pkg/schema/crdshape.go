package schema

import (
	"maps"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// addCRDShapes records the field names of each served version of a CRD, read
// from its openAPIV3Schema, for catching typos in patches (shape.go). It is
// best effort and never fails: whatever it cannot read (a missing or odd
// schema) is left unchecked, and malformed CRDs are reported by WithCRDs.
//
//   - properties make an Object of those fields, unless
//     x-kubernetes-preserve-unknown-fields is true there (any field goes);
//   - additionalProperties with a schema makes a Map of that schema;
//     additionalProperties: true, or none with no properties, is unchecked;
//   - items makes a List;
//   - an x-kubernetes-embedded-resource object also has apiVersion, kind and
//     metadata, as the API server allows;
//   - the root always has apiVersion and kind, and metadata is the built-in
//     ObjectMeta, as the API server has it.
func (s *Schema) addCRDShapes(crd *yaml.Node) {
	meta, _ := s.Shape("v1", "ConfigMap").Field("metadata")
	r := newShapeReader(nil)
	eachServed(crd, func(k kindKey, schema *yaml.Node) {
		if top, ok := rootShape(r.read(schema, 0), meta); ok {
			s.addShape(k, top)
		}
	})
}

// eachServed calls fn with the kind and the openAPIV3Schema (nil: none)
// of each served version of a CRD; a CRD without its names has none.
func eachServed(crd *yaml.Node, fn func(k kindKey, schema *yaml.Node)) {
	group, kind, versions, err := crdNames(crd)
	if err != nil {
		return
	}
	for _, v := range versions {
		v = yamltree.Resolve(v)
		name := scalar(field(v, "name"))
		if name != "" && served(v) {
			fn(kindKey{group + "/" + name, kind}, field(field(v, "schema"), "openAPIV3Schema"))
		}
	}
}

func (s *Schema) addShape(k kindKey, sh Shape) {
	if s.shapes == nil {
		s.shapes = map[kindKey]Shape{}
	}
	s.shapes[k] = sh
}

// rootShape is the shape of a kind whose schema reads as root: a copy (root
// may be shared through aliases) that always has apiVersion and kind, and
// whose metadata is meta, the built-in ObjectMeta. ok is false when root
// has no properties: nothing to check.
func rootShape(root, meta Shape) (Shape, bool) {
	if root.crd == nil || root.crd.kind != Object {
		return Shape{}, false
	}
	top := *root.crd
	top.fields = make(map[string]Shape, len(root.crd.fields)+3)
	maps.Copy(top.fields, root.crd.fields)
	addUnchecked(top.fields, "apiVersion", "kind")
	top.fields["metadata"] = meta
	top.names = slices.Sorted(maps.Keys(top.fields))
	return Shape{crd: &top}, true
}

// addUnchecked adds the fields an object lacks of names, unchecked.
func addUnchecked(fields map[string]Shape, names ...string) {
	for _, k := range names {
		if _, ok := fields[k]; !ok {
			fields[k] = Shape{}
		}
	}
}

// shapeReader reads the schemas of one CRD; YAML aliases can make a node
// appear many times, or inside itself (left unchecked there).
type shapeReader struct {
	memo[Shape]
	refs *refResolver // an OpenAPI document's $ref (openapi.go)
}

func newShapeReader(refs *refResolver) shapeReader {
	return shapeReader{memo: newMemo[Shape](), refs: refs}
}

func (r *shapeReader) read(n *yaml.Node, depth int) Shape {
	n = r.follow(yamltree.Resolve(n))
	if n == nil || n.Kind != yaml.MappingNode || depth > maxSchemaDepth {
		return Shape{}
	}
	sh, _ := r.once(n,
		func() (Shape, error) { return r.convert(n, depth), nil },
		func() (Shape, error) { return Shape{}, nil })
	return sh
}

// follow resolves n's $ref in an OpenAPI document, where it can.
func (r *shapeReader) follow(n *yaml.Node) *yaml.Node {
	if r.refs != nil && n != nil {
		if target, err := r.refs.resolve(n, ""); err == nil {
			return target
		}
	}
	return n
}

func (r *shapeReader) convert(n *yaml.Node, depth int) Shape {
	if scalar(field(n, "x-kubernetes-preserve-unknown-fields")) == "true" {
		return Shape{}
	}
	if items := field(n, "items"); items != nil {
		return r.container(List, items, depth)
	}
	if props := field(n, "properties"); props != nil && props.Kind == yaml.MappingNode && len(props.Content) > 0 {
		if field(n, "additionalProperties") != nil {
			return Shape{} // not a structural schema: leave it open
		}
		return r.object(n, props, depth)
	}
	if ap := additionalProperties(n); ap != nil {
		return r.container(Map, ap, depth)
	}
	return Shape{}
}

// container is a List or Map whose elements have elem's shape; unchecked
// when they are.
func (r *shapeReader) container(kind ShapeKind, elem *yaml.Node, depth int) Shape {
	e := r.read(elem, depth+1)
	if e == (Shape{}) {
		return Shape{}
	}
	return Shape{crd: &crdShape{kind: kind, elem: e}}
}

// object is the Object of n's properties.
func (r *shapeReader) object(n, props *yaml.Node, depth int) Shape {
	c := &crdShape{kind: Object, fields: map[string]Shape{}}
	for i := 0; i+1 < len(props.Content); i += 2 {
		c.fields[props.Content[i].Value] = r.read(props.Content[i+1], depth+1)
	}
	if scalar(field(n, "x-kubernetes-embedded-resource")) == "true" {
		addUnchecked(c.fields, "apiVersion", "kind", "metadata")
	}
	c.names = slices.Sorted(maps.Keys(c.fields))
	return Shape{crd: c}
}
