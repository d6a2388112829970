package schema

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const fooCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  names: {kind: Foo, plural: foos}
  scope: Namespaced
  versions:
  - name: v1beta1
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              list: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object}
          spec:
            type: object
            properties:
              list:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [foo, bar]
                items:
                  type: object
                  required: [foo, bar]
                  properties:
                    foo: {type: string}
                    bar: {type: string}
                    other: {type: integer}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              atomicList: {type: array, x-kubernetes-list-type: atomic, items: {type: string}}
              plainList: {type: array, items: {type: object, properties: {name: {type: string}}}}
              ports:
                type: array
                x-kubernetes-patch-strategy: merge
                x-kubernetes-patch-merge-key: port,protocol
                items:
                  type: object
                  properties:
                    port: {type: integer}
                    protocol: {type: string, default: TCP}
              hosts: {type: array, x-kubernetes-patch-strategy: merge, items: {type: string}}
              groups:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string, default: ""}
                    members:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [id]
                      items:
                        type: object
                        properties:
                          id: {type: integer}
                          roles: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              matrix:
                type: array
                x-kubernetes-list-type: set
                items: {type: array, x-kubernetes-list-type: set, items: {type: integer}}
              byZone:
                type: object
                additionalProperties:
                  type: array
                  x-kubernetes-list-type: set
                  items: {type: string}
              strategy:
                type: object
                x-kubernetes-patch-strategy: retainKeys
                properties:
                  type: {type: string}
                  rollingUpdate: {type: object}
              volumes:
                type: array
                x-kubernetes-patch-strategy: merge,retainKeys
                x-kubernetes-patch-merge-key: name
                items: {type: object, properties: {name: {type: string}}}
              selector:
                type: object
                x-kubernetes-patch-strategy: replace
                properties:
                  matchLabels: {type: object, additionalProperties: {type: string}}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              anything: {x-kubernetes-preserve-unknown-fields: true}
              config:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
`

func parse(t testing.TB, docs ...string) []*yaml.RNode {
	t.Helper()
	var items []*yaml.RNode
	for _, d := range docs {
		n, err := yaml.Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, n)
	}
	return items
}

func TestWithCRDs(t *testing.T) {
	s, _, err := Builtin().WithCRDs(parse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", fooCRD))
	if err != nil {
		t.Fatal(err)
	}
	foo := s.Lookup("example.com/v1", "Foo")
	if foo == nil {
		t.Fatal("Lookup(example.com/v1, Foo) = nil")
	}
	tests := []struct {
		path     string
		strategy ListStrategy
		keys     []string
		defaults map[string]string
	}{
		{"spec.list", MergeByKeys, []string{"foo", "bar"}, nil},
		{"spec.tags", Set, nil, nil},
		{"spec.atomicList", Replace, nil, nil},
		{"spec.plainList", Replace, nil, nil},
		{"spec.ports", MergeByKeys, []string{"port", "protocol"}, map[string]string{"protocol": "TCP"}},
		{"spec.hosts", Set, nil, nil},
		{"spec.groups", MergeByKeys, []string{"name"}, nil}, // an empty default is none
		{"spec.groups.[].members", MergeByKeys, []string{"id"}, nil},
		{"spec.groups.[].members.[].roles", Set, nil, nil},
		{"spec.matrix", Set, nil, nil},
		{"spec.matrix.[]", Set, nil, nil},
		{"spec.byZone.any-zone", Set, nil, nil},
		{"spec.volumes", MergeByKeys, []string{"name"}, nil},
		{"spec.config.tags", Set, nil, nil}, // known properties of an open object
		{"spec.config.unknown", Replace, nil, nil},
		{"metadata.finalizers", Set, nil, nil},
		{"metadata.ownerReferences", MergeByKeys, []string{"uid"}, nil},
	}
	for _, tc := range tests {
		typ := at(foo, tc.path)
		strategy, keys := typ.List()
		if strategy != tc.strategy || !reflect.DeepEqual(keys, tc.keys) {
			t.Errorf("%s: List() = %v %q, want %v %q", tc.path, strategy, keys, tc.strategy, tc.keys)
		}
		var defaults map[string]string
		if typ != nil {
			defaults = typ.KeyDefaults
		}
		if (len(tc.defaults) > 0 || len(defaults) > 0) && !reflect.DeepEqual(defaults, tc.defaults) {
			t.Errorf("%s: KeyDefaults = %v, want %v", tc.path, defaults, tc.defaults)
		}
	}
	if !at(foo, "spec.strategy").RetainKeys {
		t.Error("spec.strategy: RetainKeys = false")
	}
	if !at(foo, "spec.volumes.[]").RetainKeys {
		t.Error("spec.volumes[]: RetainKeys = false")
	}
	if !at(foo, "spec.selector").ReplaceMap {
		t.Error("spec.selector: ReplaceMap = false")
	}
	for _, p := range []string{"spec.template", "spec.anything", "spec.list.[]", "spec.nope"} {
		if got := at(foo, p); got != nil {
			t.Errorf("%s = %+v, want nil (unknown)", p, got)
		}
	}
	if at(foo, "metadata") != Builtin().Named(objectMetaName) {
		t.Error("metadata is not the built-in ObjectMeta")
	}
	if s.Lookup("example.com/v1beta1", "Foo") != nil {
		t.Error("a version that is not served is known")
	}
	// Built-in kinds still resolve through the extended schema, and the
	// shared built-in schema does not learn about Foo.
	if s.Lookup("apps/v1", "Deployment") != Builtin().Lookup("apps/v1", "Deployment") {
		t.Error("extended schema lost the built-in Deployment")
	}
	if s.Named("io.k8s.api.core.v1.PodSpec") == nil {
		t.Error("extended schema lost the built-in PodSpec")
	}
	if Builtin().Lookup("example.com/v1", "Foo") != nil {
		t.Error("WithCRDs modified the built-in schema")
	}
}

func TestWithCRDsNoCRDs(t *testing.T) {
	b := Builtin()
	items := parse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		// Not apiextensions.k8s.io/v1: not read.
		"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: x}\n")
	for _, items := range [][]*yaml.RNode{nil, items} {
		s, _, err := b.WithCRDs(items)
		if err != nil || s != b {
			t.Errorf("WithCRDs without CRDs = %p, %v; want the receiver %p", s, err, b)
		}
	}
}

// A CRD without a schema still makes its kind known, with ObjectMeta.
func TestWithCRDsNoSchema(t *testing.T) {
	s, _, err := Builtin().WithCRDs(parse(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: bars.example.com}
spec:
  group: example.com
  names: {kind: Bar}
  versions: [{name: v1, served: true}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := at(s.Lookup("example.com/v1", "Bar"), "metadata.finalizers").List(); st != Set {
		t.Error("Bar metadata.finalizers is not a set")
	}
}

func TestWithCRDsErrors(t *testing.T) {
	crd := func(spec string) string {
		return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: bad.example.com}\nspec:\n" + spec
	}
	version := func(schema string) string {
		return crd("  group: example.com\n  names: {kind: Bad}\n  versions:\n  - name: v1\n    served: true\n    schema:\n      openAPIV3Schema:\n" + schema)
	}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"no group", crd("  names: {kind: Bad}\n  versions: [{name: v1}]\n"), []string{"spec.group"}},
		{"no kind", crd("  group: example.com\n  versions: [{name: v1}]\n"), []string{"spec.names.kind"}},
		{"no versions", crd("  group: example.com\n  names: {kind: Bad}\n"), []string{"spec.versions"}},
		{"unnamed version", crd("  group: example.com\n  names: {kind: Bad}\n  versions: [{served: true}]\n"), []string{"spec.versions[0].name"}},
		{"schema not a map", version("        [a, b]\n"), []string{"openAPIV3Schema: want a schema"}},
		{"map without keys", version("        properties:\n          l: {type: array, x-kubernetes-list-type: map, items: {type: object}}\n"),
			[]string{"properties.l.x-kubernetes-list-map-keys"}},
		{"key not a property", version("        properties:\n          l: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [id], items: {type: object, properties: {name: {type: string}}}}\n"),
			[]string{"properties.l", `"id"`}},
		{"empty merge key part", version("        properties:\n          l: {type: array, x-kubernetes-patch-strategy: merge, x-kubernetes-patch-merge-key: 'a,', items: {type: object, properties: {a: {type: string}}}}\n"),
			[]string{"properties.l", `merge key ""`}},
		{"unknown list type", version("        properties:\n          l: {type: array, x-kubernetes-list-type: bag, items: {type: string}}\n"),
			[]string{"properties.l.x-kubernetes-list-type", `"bag"`}},
		{"unknown patch strategy", version("        properties:\n          m: {type: object, x-kubernetes-patch-strategy: mrege}\n"),
			[]string{"properties.m.x-kubernetes-patch-strategy", `"mrege"`}},
		{"items not a schema", version("        properties:\n          l: {type: array, items: [{type: string}]}\n"),
			[]string{"properties.l.items"}},
		{"properties not a map", version("        properties: [a]\n"), []string{"openAPIV3Schema.properties"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _, err := Builtin().WithCRDs(parse(t, tc.doc))
			if err == nil {
				t.Fatalf("no error; Lookup = %+v", s.Lookup("example.com/v1", "Bad"))
			}
			for _, w := range append(tc.want, `CustomResourceDefinition "bad.example.com"`) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestWithCRDsConflict(t *testing.T) {
	other := strings.Replace(fooCRD, "name: foos.example.com", "name: otherfoos.example.com", 1)
	_, _, err := Builtin().WithCRDs(parse(t, fooCRD, other))
	if err == nil || !strings.Contains(err.Error(), `"otherfoos.example.com"`) || !strings.Contains(err.Error(), `"foos.example.com"`) ||
		!strings.Contains(err.Error(), "example.com/v1 Foo") {
		t.Errorf("error = %v, want one naming both CRDs and the kind", err)
	}
	// The same CRD twice (two copies in a package) is no conflict.
	if _, _, err := Builtin().WithCRDs(parse(t, fooCRD, fooCRD)); err != nil {
		t.Errorf("same CRD twice: %v", err)
	}
}

// A YAML alias that refers to its own parent must not recurse forever, and
// aliases used many times must not multiply the work.
func TestWithCRDsSelfAlias(t *testing.T) {
	doc := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: loops.example.com}
spec:
  group: example.com
  names: {kind: Loop}
  versions:
  - name: v1
    schema:
      openAPIV3Schema: &s
        type: object
        properties:
          self: *s
`
	n, err := yaml.Parse(doc)
	if err != nil {
		t.Skipf("the YAML parser rejects the self-reference: %v", err)
	}
	if _, _, err := Builtin().WithCRDs([]*yaml.RNode{n}); err == nil || !strings.Contains(err.Error(), "contains itself") {
		t.Errorf("error = %v, want the nesting limit", err)
	}
}

// Aliases that double at each level (the "billion laughs") are converted
// once each: the Types are shared, and the work stays linear.
func TestWithCRDsSharedAliases(t *testing.T) {
	var b strings.Builder
	b.WriteString(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: laughs.example.com}
spec:
  group: example.com
  names: {kind: Laugh}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          l0: &l0 {type: array, x-kubernetes-list-type: set, items: {type: string}}
`)
	const levels = 40
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "          l%d: &l%d {type: object, properties: {a: *l%d, b: *l%d}}\n", i, i, i-1, i-1)
	}
	s, _, err := Builtin().WithCRDs(parse(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	root := s.Lookup("example.com/v1", "Laugh")
	top := root.Field(fmt.Sprintf("l%d", levels))
	a, bb := at(top, "a.a.a.a.a"), at(top, "b.b.b.b.b")
	if a == nil || a != bb {
		t.Errorf("aliased schemas convert to %p and %p, want one shared Type", a, bb)
	}
	if st, _ := at(root, "l3.a.b.a").List(); st != Set {
		t.Errorf("l3.a.b.a = %v, want the set of l0", st)
	}
}

// A CRD may add kinds, never redefine a built-in one: deployments.apps with
// containers atomic must leave the built-in Deployment schema in force (and
// any version of a built-in group/kind counts), while a new kind in a
// built-in group is still read.
func TestWithCRDsCannotRedefineBuiltinKinds(t *testing.T) {
	redefine := func(name, group, kind, version string) string {
		return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %s}
spec:
  group: %s
  names: {kind: %s, plural: x}
  versions:
  - name: %s
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              template:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      containers: {type: array, x-kubernetes-list-type: set, items: {type: string}}
`, name, group, kind, version)
	}
	b := Builtin()
	s, ignored, err := b.WithCRDs(parse(t,
		redefine("deployments.apps", "apps", "Deployment", "v1"),
		redefine("deployments2.apps", "apps", "Deployment", "v9"),
		redefine("widgets.apps", "apps", "Widget", "v1"),
		fooCRD))
	if err != nil {
		t.Fatal(err)
	}
	if len(ignored) != 2 || ignored[0].CRD.GetName() != "deployments.apps" || ignored[1].CRD.GetName() != "deployments2.apps" {
		t.Fatalf("ignored = %v, want deployments.apps and deployments2.apps", ignored)
	}
	if msg := ignored[0].String(); !strings.Contains(msg, `"deployments.apps"`) || !strings.Contains(msg, "apps/v1 Deployment") {
		t.Errorf("message %q does not name the CRD and the kind", msg)
	}
	if got, want := s.Lookup("apps/v1", "Deployment"), b.Lookup("apps/v1", "Deployment"); got != want {
		t.Error("the built-in Deployment schema was replaced")
	}
	if s.Lookup("apps/v9", "Deployment") != nil {
		t.Error("a CRD added a version of a built-in kind")
	}
	if s.Lookup("apps/v1", "Widget") == nil || s.Lookup("example.com/v1", "Foo") == nil {
		t.Error("CRDs for new kinds were not read")
	}
}
