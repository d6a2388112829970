package schema

import (
	"sort"

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
	spec := field(crd, "spec")
	group, kind := scalar(field(spec, "group")), scalar(field(field(spec, "names"), "kind"))
	versions := field(spec, "versions")
	if group == "" || kind == "" || versions == nil || versions.Kind != yaml.SequenceNode {
		return
	}
	meta, _ := s.Shape("v1", "ConfigMap").Field("metadata")
	r := shapeReader{done: map[*yaml.Node]Shape{}, active: map[*yaml.Node]bool{}}
	for _, v := range versions.Content {
		v = yamltree.Resolve(v)
		name := scalar(field(v, "name"))
		if name == "" || scalar(field(v, "served")) == "false" {
			continue
		}
		root := r.read(field(field(v, "schema"), "openAPIV3Schema"), 0)
		if root.crd == nil || root.crd.kind != Object {
			continue // no properties at the root: nothing to check
		}
		top := *root.crd // a copy: the root may be shared through aliases
		top.fields = make(map[string]Shape, len(root.crd.fields)+3)
		for k, f := range root.crd.fields {
			top.fields[k] = f
		}
		for _, k := range []string{"apiVersion", "kind"} {
			if _, ok := top.fields[k]; !ok {
				top.fields[k] = Shape{}
			}
		}
		top.fields["metadata"] = meta
		top.names = sortedNames(top.fields)
		if s.shapes == nil {
			s.shapes = map[kindKey]Shape{}
		}
		s.shapes[kindKey{group + "/" + name, kind}] = Shape{crd: &top}
	}
}

// shapeReader reads the schemas of one CRD; YAML aliases can make a node
// appear many times, or inside itself (left unchecked there).
type shapeReader struct {
	done   map[*yaml.Node]Shape
	active map[*yaml.Node]bool
	refs   *refResolver // an OpenAPI document's $ref (openapi.go)
}

func (r *shapeReader) read(n *yaml.Node, depth int) Shape {
	n = yamltree.Resolve(n)
	if r.refs != nil && n != nil {
		if target, err := r.refs.resolve(n, ""); err == nil {
			n = target
		}
	}
	if n == nil || n.Kind != yaml.MappingNode || depth > maxSchemaDepth || r.active[n] {
		return Shape{}
	}
	if sh, ok := r.done[n]; ok {
		return sh
	}
	r.active[n] = true
	sh := r.convert(n, depth)
	delete(r.active, n)
	r.done[n] = sh
	return sh
}

func (r *shapeReader) convert(n *yaml.Node, depth int) Shape {
	if scalar(field(n, "x-kubernetes-preserve-unknown-fields")) == "true" {
		return Shape{}
	}
	if items := field(n, "items"); items != nil {
		elem := r.read(items, depth+1)
		if elem == (Shape{}) {
			return Shape{}
		}
		return Shape{crd: &crdShape{kind: List, elem: elem}}
	}
	props := field(n, "properties")
	if props != nil && props.Kind == yaml.MappingNode && len(props.Content) > 0 {
		if field(n, "additionalProperties") != nil {
			return Shape{} // not a structural schema: leave it open
		}
		c := &crdShape{kind: Object, fields: map[string]Shape{}}
		for i := 0; i+1 < len(props.Content); i += 2 {
			c.fields[props.Content[i].Value] = r.read(props.Content[i+1], depth+1)
		}
		if scalar(field(n, "x-kubernetes-embedded-resource")) == "true" {
			for _, k := range []string{"apiVersion", "kind", "metadata"} {
				if _, ok := c.fields[k]; !ok {
					c.fields[k] = Shape{}
				}
			}
		}
		c.names = sortedNames(c.fields)
		return Shape{crd: c}
	}
	if ap := field(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode {
		elem := r.read(ap, depth+1)
		if elem == (Shape{}) {
			return Shape{}
		}
		return Shape{crd: &crdShape{kind: Map, elem: elem}}
	}
	return Shape{}
}

func sortedNames(m map[string]Shape) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
