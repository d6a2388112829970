package main

import (
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An OpenAPI v3 document of a test API, as the Kubernetes repository
// publishes them.
const testOpenAPI = `{"openapi": "3.0.0", "components": {"schemas": {
  "io.k8s.api.x.v1.Thing": {
    "type": "object",
    "x-kubernetes-group-version-kind": [{"group": "x.example.io", "version": "v1", "kind": "Thing"}],
    "properties": {
      "apiVersion": {"type": "string"},
      "metadata": {"allOf": [{"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}], "default": {}},
      "spec": {"$ref": "#/components/schemas/io.k8s.api.x.v1.ThingSpec"}
    }
  },
  "io.k8s.api.x.v1.ThingList": {
    "type": "object",
    "x-kubernetes-group-version-kind": [{"group": "x.example.io", "version": "v1", "kind": "ThingList"}],
    "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/io.k8s.api.x.v1.Thing"}}}
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {
    "type": "object",
    "properties": {"labels": {"type": "object", "additionalProperties": {"type": "string"}}}
  },
  "io.k8s.apimachinery.pkg.api.resource.Quantity": {"oneOf": [{"type": "string"}, {"type": "number"}]},
  "io.k8s.api.x.v1.ThingSpec": {
    "type": "object",
    "required": ["size"],
    "properties": {
      "size": {"type": "integer", "format": "int32", "description": "how big"},
      "policy": {"type": "string"},
      "modes": {"type": "array", "items": {"type": "string"}},
      "limit": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity"},
      "self": {"$ref": "#/components/schemas/io.k8s.api.x.v1.ThingSpec"},
      "raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
    }
  }
}}}`

// The Go side of the test API: enum types and their values.
const testEnumTypes = `package v1

type ThingSpec struct {
	Size int32 ` + "`json:\"size\"`" + `
	Policy Policy ` + "`json:\"policy,omitempty\"`" + `
	Modes []Mode ` + "`json:\"modes,omitempty\"`" + `
}

// Policy says how.
// +enum
type Policy string

const (
	PolicyAlways Policy = "Always"
	PolicyNever  Policy = "Never"
)

// +enum
type Mode string

const ModeFast Mode = "fast"

// Not an enum: no marker.
type Other string

const OtherX Other = "x"
`

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRules(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "spec", "api__x_openapi.json"), testOpenAPI)
	writeFile(t, filepath.Join(dir, "api", "x", "v1", "types.go"), testEnumTypes)
	defs, err := readOpenAPI(filepath.Join(dir, "spec"))
	if err != nil {
		t.Fatal(err)
	}
	enums, err := readEnums(map[string]string{"k8s.io/api": filepath.Join(dir, "api")}, []string{"k8s.io/api"})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := buildRules(defs, enums)
	if err != nil {
		t.Fatal(err)
	}
	src, err := format.Source(rt.emit("v0.37.2", []string{"k8s.io/kubernetes@v1.37.2"}))
	if err != nil {
		t.Fatal(err)
	}
	out := string(src)
	for _, want := range []string{
		`const rulesSource = "Kubernetes 1.37.2 OpenAPI v3 (api/openapi-spec/v3)"`,
		`{"x.example.io/v1", "Thing", 1}`,
		`required: []string{"size"}`,
		`{typ: "integer", format: "int32"}`,
		`{typ: "string", enum: []string{"Always", "Never"}}`,
		`enum: []string{"fast"}`,
		`{format: "quantity"}`,
		`{typ: "object", open: true}`,
		`values: `,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, "ThingList") || strings.Contains(out, `"x"`) {
		t.Errorf("a List kind, or a type without +enum, made it into the tables:\n%s", out)
	}
}

// A keyword the tables cannot carry is an error, not a check silently
// left out.
func TestRulesRefuseUnknownKeywords(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), strings.Replace(testOpenAPI, `"description": "how big"`, `"minimum": 1`, 1))
	if _, err := readOpenAPI(dir); err == nil || !strings.Contains(err.Error(), `"minimum" is not carried`) {
		t.Errorf("got %v", err)
	}
	if _, err := readOpenAPI(t.TempDir()); err == nil {
		t.Error("no documents: no error")
	}
}
