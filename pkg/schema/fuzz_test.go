package schema

import (
	"bytes"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzWithCRDs feeds streams of CRD-like documents to WithCRDs: it must never
// panic, must leave the built-in schema alone, and must only produce
// well-formed Types.
func FuzzWithCRDs(f *testing.F) {
	f.Add([]byte(fooCRD))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Not kio.FromBytes: kyaml's DeAnchor never returns on a
		// self-referencing alias, and we want aliases to reach WithCRDs.
		dec := yaml.NewDecoder(bytes.NewReader(data))
		var items []*yaml.RNode
		for len(items) < 10 {
			var n yaml.Node
			if dec.Decode(&n) != nil {
				break
			}
			items = append(items, yaml.NewRNode(&n))
		}
		checkWithCRDs(t, items)
	})
}

const crdSkeleton = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: fuzz.example.com}
spec:
  group: example.com
  names: {kind: Fuzz}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema: {}
`

// FuzzCRDSchema puts arbitrary YAML where a CRD's openAPIV3Schema goes, to
// reach deep into the schema walker.
func FuzzCRDSchema(f *testing.F) {
	f.Add([]byte("type: object\nproperties:\n  l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [a], items: {properties: {a: {default: x}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		schema, err := yaml.Parse(string(data))
		if err != nil || schema.YNode() == nil {
			return
		}
		crd := yaml.MustParse(crdSkeleton)
		v := field(field(crd.YNode(), "spec"), "versions").Content[0]
		s := field(v, "schema")
		s.Content[1] = schema.YNode()
		checkWithCRDs(t, []*yaml.RNode{crd})
	})
}

func checkWithCRDs(t *testing.T, items []*yaml.RNode) {
	b := Builtin()
	nb := len(b.kinds)
	s, _, err := b.WithCRDs(items)
	if len(b.kinds) != nb || b.base != nil {
		t.Fatal("WithCRDs modified the built-in schema")
	}
	if err != nil {
		if s != nil {
			t.Fatalf("error %v with a schema", err)
		}
		return
	}
	if s == nil {
		t.Fatal("nil schema without an error")
	}
	if s != b && s.base != b {
		t.Fatal("extended schema does not fall back to the receiver")
	}
	seen := map[*Type]bool{}
	for k, root := range s.kinds {
		if root == nil {
			t.Fatalf("%v: nil root", k)
		}
		checkType(t, root, seen)
	}
}

func checkType(t *testing.T, typ *Type, seen map[*Type]bool) {
	if typ == nil || seen[typ] {
		return
	}
	seen[typ] = true
	strategy, keys := typ.List()
	if (strategy == MergeByKeys) != (len(keys) > 0) {
		t.Fatalf("strategy %v with keys %q", strategy, keys)
	}
	for k := range typ.KeyDefaults {
		if !contains(keys, k) {
			t.Fatalf("default for %q, not a key of %q", k, keys)
		}
	}
	for _, f := range typ.Fields {
		checkType(t, f, seen)
	}
	checkType(t, typ.Elem, seen)
}

// FuzzWithOpenAPI feeds arbitrary documents to WithOpenAPI, in place of a
// definition of an OpenAPI v2 document with a kind, to reach the $ref
// resolution and the walkers: no panic, no endless reference loop, and
// well-formed Types, with the receiver left alone.
func FuzzWithOpenAPI(f *testing.F) {
	f.Add([]byte(`{"properties": {"spec": {"$ref": "#/definitions/s"}}}`))
	f.Add([]byte(`{"allOf": [{"$ref": "#/definitions/k"}]}`))
	f.Add([]byte(`{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "items": {"$ref": "#/definitions/s"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		def, err := yaml.Parse(string(data))
		if err != nil || def.YNode() == nil {
			return
		}
		doc := yaml.MustParse(`{"swagger": "2.0", "definitions": {
			"k": {"x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "K"}], "properties": {"spec": {"$ref": "#/definitions/s"}}},
			"s": {"properties": {"self": {"$ref": "#/definitions/s"}, "name": {"type": "string"}}}}}`)
		defs := field(doc.YNode(), "definitions")
		defs.Content = append(defs.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "fuzz"}, def.YNode())
		field(field(field(defs, "k"), "properties"), "spec").Content[1].Value = "#/definitions/fuzz"
		b := Builtin()
		nb := len(b.kinds)
		s, _, err := b.WithOpenAPI(doc.YNode())
		if len(b.kinds) != nb || b.base != nil {
			t.Fatal("WithOpenAPI modified the built-in schema")
		}
		if err != nil {
			return
		}
		seen := map[*Type]bool{}
		for _, root := range s.kinds {
			checkType(t, root, seen)
		}
	})
}
