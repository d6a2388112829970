package schema

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const openAPIv2 = `{
  "swagger": "2.0",
  "definitions": {
    "com.example.v1.Widget": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "Widget"}],
      "properties": {
        "apiVersion": {"type": "string"},
        "metadata": {"$ref": "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
        "spec": {"$ref": "#/definitions/com.example.v1.WidgetSpec"}
      }
    },
    "com.example.v1.WidgetSpec": {
      "type": "object",
      "properties": {
        "parts": {
          "type": "array",
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          "items": {"$ref": "#/definitions/com.example.v1.Part"}
        },
        "schema": {"$ref": "#/definitions/com.example.v1.Props"}
      }
    },
    "com.example.v1.Part": {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer"}}},
    "com.example.v1.Props": {
      "type": "object",
      "properties": {
        "items": {"$ref": "#/definitions/com.example.v1.Props"},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}}
      }
    },
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object", "properties": {"name": {"type": "string"}}},
    "io.k8s.api.apps.v1.Deployment": {
      "type": "object",
      "x-kubernetes-group-version-kind": [{"group": "apps", "version": "v1", "kind": "Deployment"}],
      "properties": {"spec": {"type": "object", "properties": {"containers": {"type": "array", "items": {"type": "string"}}}}}
    }
  }
}`

const openAPIv3 = `openapi: 3.0.0
components:
  schemas:
    com.example.v2.Gadget:
      type: object
      x-kubernetes-group-version-kind:
      - {group: example.com, version: v2, kind: Gadget}
      properties:
        spec:
          allOf:
          - $ref: '#/components/schemas/com.example.v2.GadgetSpec'
          default: {}
    com.example.v2.GadgetSpec:
      type: object
      properties:
        ports:
          type: array
          x-kubernetes-patch-strategy: merge
          x-kubernetes-patch-merge-key: port
          items: {$ref: '#/components/schemas/com.example.v2.Port'}
    com.example.v2.Port:
      type: object
      properties:
        port: {type: integer}
`

func TestWithOpenAPIv2(t *testing.T) {
	s, skipped, err := Builtin().WithOpenAPI(yaml.MustParse(openAPIv2).YNode())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(skipped, ",") != "apps/v1 Deployment" {
		t.Errorf("skipped %v", skipped)
	}
	w := s.Lookup("example.com/v1", "Widget")
	if st, keys := w.Field("spec").Field("parts").List(); st != MergeByKeys || strings.Join(keys, ",") != "name" {
		t.Errorf("parts: %v %v", st, keys)
	}
	if st, _ := w.Field("spec").Field("schema").Field("tags").List(); st != Set {
		t.Errorf("tags through a recursive definition: %v", st)
	}
	if w.Field("metadata") != Builtin().Named(objectMetaName) {
		t.Error("metadata is not the built-in ObjectMeta")
	}
	if st, keys := s.Lookup("apps/v1", "Deployment").Field("spec").Field("template").Field("spec").Field("containers").List(); st != MergeByKeys || keys[0] != "name" {
		t.Errorf("the document redefined a built-in kind: %v %v", st, keys)
	}
	sh := s.Shape("example.com/v1", "Widget")
	if u := UnknownFields(yaml.MustParse("spec: {partz: []}"), sh); len(u) != 1 || u[0].Suggestion != "parts" {
		t.Errorf("typo check: %v", u)
	}
}

func TestWithOpenAPIv3(t *testing.T) {
	doc := yaml.MustParse(openAPIv3).YNode()
	if !IsOpenAPI(doc) {
		t.Fatal("not recognised")
	}
	s, _, err := Builtin().WithOpenAPI(doc)
	if err != nil {
		t.Fatal(err)
	}
	if st, keys := s.Lookup("example.com/v2", "Gadget").Field("spec").Field("ports").List(); st != MergeByKeys || keys[0] != "port" {
		t.Errorf("ports: %v %v", st, keys)
	}
}

func TestWithOpenAPIErrors(t *testing.T) {
	for _, c := range []struct{ doc, err string }{
		{`{"kind": "ConfigMap"}`, "not an OpenAPI document"},
		{`{"swagger": "2.0", "definitions": {"a": {"x-kubernetes-group-version-kind": [{"group": "x", "version": "v1", "kind": "A"}], "properties": {"b": {"$ref": "#/definitions/missing"}}}}}`,
			`definition "a": a.properties.b: $ref "#/definitions/missing" names no definition`},
		{`{"swagger": "2.0", "definitions": {"a": {"x-kubernetes-group-version-kind": [{"group": "x", "version": "v1", "kind": "A"}], "properties": {"l": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["id"], "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}`,
			`merge key "id" is not a property`},
	} {
		_, _, err := Builtin().WithOpenAPI(yaml.MustParse(c.doc).YNode())
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("got %v, want %q", err, c.err)
		}
	}
}
