package schema

import (
	"bytes"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestUnknownFieldsBuiltin(t *testing.T) {
	patch := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {anything: goes}
  annotation: {typo: here}
spec:
  replica: 3
  template:
    metadata:
      annotations: {a: b}
    spec:
      $setElementOrder/containers: [{name: app}]
      containers:
      - name: app
        imagePullPolice: Always
        envv:
        - name: A
          value: b
        resources:
          limits: {memory: 1Gi}
        $patch: replace
      - name: side
        env:
        - name: B
          valeu: c
      volumes:
      - name: data
        emptyDir: {}
        configMap: {name: x, items: [{key: a, path: b, mod: 1}]}
  strategy:
    rollingUpdate: {maxSurge: 1}
`)
	got := describeUnknown(UnknownFields(patch, Builtin().Shape("apps/v1", "Deployment")))
	want := []string{
		`metadata: unknown field "annotation" in metadata (did you mean annotations?)`,
		`spec: unknown field "replica" in spec (did you mean replicas?)`,
		`spec.template.spec.containers[name=app]: unknown field "imagePullPolice" in spec.template.spec.containers[name=app] (did you mean imagePullPolicy?)`,
		`spec.template.spec.containers[name=app]: unknown field "envv" in spec.template.spec.containers[name=app] (did you mean env?)`,
		`spec.template.spec.containers[name=side].env[name=B]: unknown field "valeu" in spec.template.spec.containers[name=side].env[name=B] (did you mean value?)`,
		`spec.template.spec.volumes[name=data].configMap.items[0]: unknown field "mod" in spec.template.spec.volumes[name=data].configMap.items[0] (did you mean mode?)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func describeUnknown(us []UnknownField) []string {
	var out []string
	for _, u := range us {
		out = append(out, u.Path+": "+u.String())
	}
	return out
}

func TestUnknownFieldsFarFromAnyField(t *testing.T) {
	got := UnknownFields(yaml.MustParse("spec:\n  completelyDifferent: 1\n"), Builtin().Shape("apps/v1", "Deployment"))
	if len(got) != 1 || got[0].Suggestion != "" || got[0].FullPath() != "spec.completelyDifferent" {
		t.Errorf("got %+v, want one unknown field without a suggestion", got)
	}
}

func TestUnknownFieldsUncheckedPlaces(t *testing.T) {
	// unknown kinds, open values (a CRD's spec inside a ConfigMap's data is
	// a string), untyped fields and maps with arbitrary keys are not checked
	for _, tc := range []struct{ apiVersion, kind, patch string }{
		{"example.com/v1", "Unknown", "spec: {anything: 1}"},
		{"v1", "ConfigMap", "data: {anyKey: x}\nbinaryData: {k: eA==}"},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", "spec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n          spec: {default: {any: 1}, example: {thing: 2}}\n"},
		{"apps/v1", "Deployment", "spec:\n  template:\n    spec:\n      nodeSelector: {any: key}\n"},
	} {
		if got := UnknownFields(yaml.MustParse(tc.patch), Builtin().Shape(tc.apiVersion, tc.kind)); len(got) > 0 {
			t.Errorf("%s %s: %v, want nothing", tc.apiVersion, tc.kind, got)
		}
	}
}

// Every built-in kind has its field names, and they include the fields of
// ObjectMeta.
func TestEveryBuiltinKindHasAShape(t *testing.T) {
	s := Builtin()
	for _, k := range builtinKinds {
		sh := s.Shape(k.apiVersion, k.kind)
		if sh.Kind() != Object {
			t.Errorf("%s %s: shape %v, want an object", k.apiVersion, k.kind, sh)
			continue
		}
		md, ok := sh.Field("metadata")
		if !ok {
			t.Errorf("%s %s: no metadata", k.apiVersion, k.kind)
		}
		if _, ok := md.Field("labels"); !ok {
			t.Errorf("%s %s: metadata has no labels", k.apiVersion, k.kind)
		}
		if _, ok := md.Field("lables"); ok {
			t.Errorf("%s %s: metadata has every field", k.apiVersion, k.kind)
		}
	}
}

func TestUnknownFieldsCRD(t *testing.T) {
	crd := yaml.MustParse(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: rollouts.example.com
spec:
  group: example.com
  names: {kind: Rollout}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              steps:
                type: array
                items:
                  type: object
                  properties:
                    weight: {type: integer}
              labels:
                type: object
                additionalProperties:
                  type: object
                  properties:
                    value: {type: string}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  known: {type: string}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  spec: {type: object, properties: {x: {type: string}}}
  - name: v2
    served: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {other: {type: string}}}
`)
	s, _, err := Builtin().WithCRDs([]*yaml.RNode{crd})
	if err != nil {
		t.Fatal(err)
	}
	patch := yaml.MustParse(`apiVersion: example.com/v1
kind: Rollout
metadata:
  name: r
  lables: {a: b}
spec:
  replica: 2
  steps:
  - weigth: 10
  labels:
    anyKey: {value: x, vlaue: y}
  extra: {whatever: 1, known: 2}
  template:
    apiVersion: v1
    kind: Thing
    metadata: {name: x}
    spec: {y: 1}
`)
	got := describeUnknown(UnknownFields(patch, s.Shape("example.com/v1", "Rollout")))
	want := []string{
		`metadata: unknown field "lables" in metadata (did you mean labels?)`,
		`spec: unknown field "replica" in spec (did you mean replicas?)`,
		`spec.steps[0]: unknown field "weigth" in spec.steps[0] (did you mean weight?)`,
		`spec.labels.anyKey: unknown field "vlaue" in spec.labels.anyKey (did you mean value?)`,
		`spec.template.spec: unknown field "y" in spec.template.spec`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if sh := s.Shape("example.com/v2", "Rollout"); sh.Kind() != Unchecked {
		t.Errorf("an unserved version: shape %v, want unchecked", sh)
	}
}

// BenchmarkUnknownFields measures the typo check of a typical Deployment
// patch (it runs once per patch document and kind).
func BenchmarkUnknownFields(b *testing.B) {
	patch := yaml.MustParse("spec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: app\n        imagePullPolicy: Always\n        env:\n        - {name: A, value: b}\n")
	sh := Builtin().Shape("apps/v1", "Deployment")
	b.ReportAllocs()
	for b.Loop() {
		if len(UnknownFields(patch, sh)) != 0 {
			b.Fatal("unexpected unknown fields")
		}
	}
}

// FuzzUnknownFields checks patches of any form against a built-in and a CRD
// shape: never a panic, never more than maxUnknownFields, and a suggestion
// is always a different name.
func FuzzUnknownFields(f *testing.F) {
	f.Add([]byte("spec:\n  replica: 3\n  template: {spec: {containers: [{name: a, envv: []}]}}\n"))
	f.Add([]byte("a: &x {b: *x}\n"))
	f.Add([]byte("- 1\n- {a: b}\n"))
	crds := parse(f, fooCRD)
	s, _, err := Builtin().WithCRDs(crds)
	if err != nil {
		f.Fatal(err)
	}
	crdGroup, crdKind := "", ""
	for k := range s.shapes {
		crdGroup, crdKind = k.apiVersion, k.kind
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var n yaml.Node
		if yaml.NewDecoder(bytes.NewReader(data)).Decode(&n) != nil {
			return
		}
		for _, sh := range []Shape{Builtin().Shape("apps/v1", "Deployment"), s.Shape(crdGroup, crdKind)} {
			got := UnknownFields(yaml.NewRNode(&n), sh)
			if len(got) > maxUnknownFields {
				t.Fatalf("%d unknown fields reported", len(got))
			}
			for _, u := range got {
				if u.Suggestion != "" && u.Suggestion == u.Field {
					t.Fatalf("suggests the field itself: %+v", u)
				}
			}
		}
	})
}
