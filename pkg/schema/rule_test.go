package schema

import (
	"reflect"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The built-in rules come from the OpenAPI schema (types, formats,
// required fields, closed objects) and the Go types' +enum markers.
func TestBuiltinRules(t *testing.T) {
	d := Builtin().Rule("apps/v1", "Deployment")
	if d == nil {
		t.Fatal("no rule for apps/v1 Deployment")
	}
	spec := d.Fields["spec"]
	if r := spec.Fields["replicas"]; r.Type != "integer" || r.Format != "int32" {
		t.Errorf("replicas: %+v", r)
	}
	if !reflect.DeepEqual(spec.Required, []string{"selector", "template"}) {
		t.Errorf("spec requires %v", spec.Required)
	}
	ctr := spec.Fields["template"].Fields["spec"].Fields["containers"].Element()
	if got := ctr.Fields["imagePullPolicy"].Enum; !reflect.DeepEqual(got, []string{"Always", "IfNotPresent", "Never"}) {
		t.Errorf("imagePullPolicy enum: %v", got)
	}
	if r := ctr.Fields["resources"].Fields["limits"].Values; r.Format != "quantity" {
		t.Errorf("a limit: %+v", r)
	}
	if _, ok := spec.Field("replica"); ok {
		t.Error("a Deployment's spec takes any field")
	}
	if r, ok := d.Fields["metadata"].Fields["labels"].Field("app"); !ok || r.Type != "string" {
		t.Errorf("a label: %+v %v", r, ok)
	}
	if Builtin().Rule("example.com/v1", "Foo") != nil {
		t.Error("a rule for an unknown kind")
	}
	if (&Schema{}).Rule("apps/v1", "Deployment") != nil {
		t.Error("the zero Schema knows a kind")
	}
}

// A CRD's rules are read from its openAPIV3Schema when first asked for;
// its metadata is the built-in ObjectMeta's, and an object that keeps
// unknown fields takes any.
func TestCRDRules(t *testing.T) {
	crd := yaml.MustParse(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: foos.example.com}
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1, maximum: 5, exclusiveMaximum: true}
              mode: {type: string, enum: [a, b], pattern: '^[ab]$', maxLength: 1}
              any: {type: object, x-kubernetes-preserve-unknown-fields: true}
              port: {x-kubernetes-int-or-string: true}
              map: {type: object, additionalProperties: {type: string}}
              list: {type: array, minItems: 1, items: {type: string}}
  - name: v2
    served: false
`)
	s, _, err := Builtin().WithCRDs([]*yaml.RNode{crd})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rule("example.com/v1", "Foo")
	if r == nil {
		t.Fatal("no rule")
	}
	spec := r.Fields["spec"]
	size := spec.Fields["size"]
	if *size.Minimum != 1 || *size.Maximum != 5 || !size.ExclusiveMaximum || size.Type != "integer" {
		t.Errorf("size: %+v", size)
	}
	mode := spec.Fields["mode"]
	if !reflect.DeepEqual(mode.Enum, []string{"a", "b"}) || mode.Pattern != "^[ab]$" || *mode.MaxLength != 1 {
		t.Errorf("mode: %+v", mode)
	}
	if _, ok := spec.Fields["any"].Field("whatever"); !ok {
		t.Error("an object keeping unknown fields refuses one")
	}
	if spec.Fields["port"].Format != "int-or-string" || spec.Fields["map"].Values.Type != "string" || *spec.Fields["list"].MinItems != 1 {
		t.Errorf("port, map, list: %+v %+v %+v", spec.Fields["port"], spec.Fields["map"], spec.Fields["list"])
	}
	if !reflect.DeepEqual(spec.Required, []string{"size"}) {
		t.Errorf("required: %v", spec.Required)
	}
	if r.Fields["metadata"] != objectMetaRule() || r.Fields["kind"].Type != "string" {
		t.Error("the root's metadata is not ObjectMeta, or kind is not a string")
	}
	if s.Rule("example.com/v2", "Foo") != nil {
		t.Error("a version not served has a rule")
	}
}

// An OpenAPI document's kinds have rules too, $ref followed.
func TestOpenAPIRules(t *testing.T) {
	doc := yaml.MustParse(`openapi: 3.0.0
components:
  schemas:
    com.example.Bar:
      x-kubernetes-group-version-kind: [{group: example.com, version: v1, kind: Bar}]
      type: object
      properties:
        spec: {$ref: '#/components/schemas/com.example.BarSpec'}
    com.example.BarSpec:
      type: object
      properties:
        level: {type: string, enum: [low, high]}
`)
	s, _, err := Builtin().WithOpenAPI(doc.YNode())
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rule("example.com/v1", "Bar")
	if r == nil || !reflect.DeepEqual(r.Fields["spec"].Fields["level"].Enum, []string{"low", "high"}) {
		t.Errorf("Bar: %+v", r)
	}
}

// A nil Rule allows anything.
func TestNilRule(t *testing.T) {
	var r *Rule
	if f, ok := r.Field("x"); f != nil || !ok || r.Element() != nil {
		t.Error("a nil rule says something")
	}
}
