package main

import (
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const testSchema = `types:
- name: io.k8s.api.x.v1.Thing
  map:
    fields:
    - name: metadata
      type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}
    - name: spec
      type: {namedType: io.k8s.api.x.v1.ThingSpec}
- name: io.k8s.api.x.v1.ThingList
  map:
    fields:
    - name: items
      type: {list: {elementType: {namedType: io.k8s.api.x.v1.Thing}, elementRelationship: atomic}}
- name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta
  map:
    fields:
    - name: finalizers
      type: {list: {elementType: {scalar: string}, elementRelationship: associative}}
    - name: labels
      type: {map: {elementType: {scalar: string}}}
- name: io.k8s.api.x.v1.ThingSpec
  map:
    fields:
    - name: ports
      type: {list: {elementType: {namedType: io.k8s.api.x.v1.Port}, elementRelationship: associative, keys: [port, protocol]}}
    - name: refs
      type: {list: {elementType: {namedType: io.k8s.api.x.v1.Ref}, elementRelationship: associative, keys: [name]}}
    - name: conditions
      type: {list: {elementType: {namedType: io.k8s.api.x.v1.Cond}, elementRelationship: atomic}}
    - name: hosts
      type: {list: {elementType: {scalar: string}}}
    - name: args
      type: {list: {elementType: {scalar: string}, elementRelationship: atomic}}
    - name: strategy
      type: {namedType: io.k8s.api.x.v1.Strategy}
    - name: otherStrategy
      type: {namedType: io.k8s.api.x.v1.Strategy}
- name: io.k8s.api.x.v1.Port
  map:
    fields:
    - {name: port, type: {scalar: numeric}, default: 0}
    - {name: protocol, type: {scalar: string}, default: TCP}
- name: io.k8s.api.x.v1.Ref
  map:
    fields:
    - {name: name, type: {scalar: string}, default: ""}
- name: io.k8s.api.x.v1.Cond
  map:
    fields:
    - {name: type, type: {scalar: string}, default: ""}
- name: io.k8s.api.x.v1.Strategy
  map:
    fields:
    - {name: type, type: {scalar: string}}
- name: __untyped_atomic_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
- name: __untyped_deduced_
  scalar: untyped
  list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
  map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
`

// The Go side of the test API, as k8s.io/api writes it.
const testTypes = `package v1

const GroupName = "x.example.io"

var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion, &Thing{}, &ThingList{})
	return nil
}

type Thing struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Spec ThingSpec ` + "`json:\"spec\"`" + `
}

type ThingList struct {
	Items []Thing ` + "`json:\"items\"`" + `
}

type ThingSpec struct {
	Ports []Port ` + "`json:\"ports\" patchStrategy:\"merge\" patchMergeKey:\"port\"`" + `
	Refs []Ref ` + "`json:\"refs\" patchStrategy:\"merge\" patchMergeKey:\"name\"`" + `
	Conditions []Cond ` + "`json:\"conditions\" patchStrategy:\"merge\" patchMergeKey:\"type\"`" + `
	Hosts []string ` + "`json:\"hosts\" patchStrategy:\"merge\"`" + `
	Args []string ` + "`json:\"args\"`" + `
	Strategy Strategy ` + "`json:\"strategy\" patchStrategy:\"retainKeys\"`" + `
	OtherStrategy Strategy ` + "`json:\"otherStrategy\"`" + `
}

type Port struct {
	// No marker: the schema's "default: 0" is only the zero value.
	Port int32 ` + "`json:\"port\"`" + `
	// +default="TCP"
	Protocol string ` + "`json:\"protocol\"`" + `
}

type Ref struct {
	// +default=""
	Name string ` + "`json:\"name\"`" + `
}

type Cond struct {
	Type string ` + "`json:\"type\"`" + `
}

type Strategy struct {
	Type string ` + "`json:\"type\"`" + `
}
`

func testGraph(t *testing.T) *graph {
	t.Helper()
	var s smdSchema
	if err := yaml.Unmarshal([]byte(testSchema), &s); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "x", "v1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "types.go"), []byte(testTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	pkgs, err := readPackages(filepath.Dir(filepath.Dir(dir)), "k8s.io/api", prefixesOf(s.Types))
	if err != nil {
		t.Fatal(err)
	}
	g := newGraph()
	if err := g.add(s.Types, pkgs); err != nil {
		t.Fatal(err)
	}
	if err := g.resolve(); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGraph(t *testing.T) {
	g := testGraph(t)
	spec := g.named["io.k8s.api.x.v1.ThingSpec"]
	tests := []struct {
		field          string
		strategy       int
		keys, defaults []string
	}{
		// The schema's keys win over the single patchMergeKey; only the
		// +default= marked, non-empty default counts.
		{"ports", mergeByKeys, []string{"port", "protocol"}, []string{"protocol", "TCP"}},
		{"refs", mergeByKeys, []string{"name"}, nil},
		// Atomic in the schema, merged by the struct tags.
		{"conditions", mergeByKeys, []string{"type"}, nil},
		{"hosts", set, nil, nil},
		{"args", replace, nil, nil},
	}
	for _, tc := range tests {
		n := spec.fields[tc.field]
		if n.strategy != tc.strategy || !reflect.DeepEqual(n.keys, tc.keys) || !reflect.DeepEqual(n.defaults, tc.defaults) {
			t.Errorf("%s: strategy %d keys %q defaults %q, want %d %q %q", tc.field, n.strategy, n.keys, n.defaults, tc.strategy, tc.keys, tc.defaults)
		}
	}
	if s := spec.fields["strategy"]; !s.retainKeys || !s.interesting {
		t.Errorf("strategy: retainKeys %v interesting %v", s.retainKeys, s.interesting)
	}
	if s := spec.fields["otherStrategy"]; s.retainKeys || s.interesting {
		t.Error("the retainKeys tag of one field leaked into the named type")
	}
	if spec.fields["args"].interesting || g.named["io.k8s.api.x.v1.Port"].interesting {
		t.Error("types that merge as unknown are kept")
	}
	if !reflect.DeepEqual(g.kinds, []kind{{"x.example.io/v1", "Thing", "io.k8s.api.x.v1.Thing"}}) {
		t.Errorf("kinds = %v, want Thing only (ThingList has no ObjectMeta)", g.kinds)
	}

	src, err := g.emit("v0.99.1", []string{"k8s.io/client-go@v0.99.1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := format.Source(src); err != nil {
		t.Fatalf("emitted Go does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{
		`const KubernetesVersion = "1.99.1"`,
		`{"x.example.io/v1", "Thing", 1, 1}`,
		`keys: []string{"port", "protocol"}, defaults: []string{"protocol", "TCP"}`,
		`retainKeys: true`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("output lacks %s:\n%s", want, src)
		}
	}
	// the merge tables keep only what merging needs (the shape tables,
	// after them, name every field)
	mergeTables, _, _ := strings.Cut(string(src), "var builtinKinds")
	for _, unwanted := range []string{"Port\"", "labels", "args", "otherStrategy"} {
		if strings.Contains(mergeTables, unwanted) {
			t.Errorf("output keeps %s:\n%s", unwanted, src)
		}
	}
}

func TestSchemaPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"k8s.io/api/apps/v1": "io.k8s.api.apps.v1",
		"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1": "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1",
		"k8s.io/api": "io.k8s.api",
	} {
		if got := schemaPrefix(in); got != want {
			t.Errorf("schemaPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestShapes reads the shape tables back: every field of every type
// reachable from a kind, with the shapes below.
func TestShapes(t *testing.T) {
	g := testGraph(t)
	st, err := g.shapes()
	if err != nil {
		t.Fatal(err)
	}
	var show func(off, depth int) string
	show = func(off, depth int) string {
		if off == 0 {
			return "*"
		}
		if depth > 5 {
			return "..."
		}
		head := int(st.data[off])
		switch head & 3 {
		case shapeObject:
			var fs []string
			for i := range head >> 2 {
				name := st.names[st.data[off+1+2*i]]
				fs = append(fs, name+":"+show(int(st.data[off+2+2*i]), depth+1))
			}
			return "{" + strings.Join(fs, " ") + "}"
		case shapeMap:
			return "map[" + show(int(st.data[off+1]), depth+1) + "]"
		case shapeList:
			return "[" + show(int(st.data[off+1]), depth+1) + "]"
		}
		return "?"
	}
	got := show(st.kinds[0], 0)
	want := "{metadata:{finalizers:* labels:*} spec:{args:* conditions:[{type:*}] hosts:* otherStrategy:{type:*} ports:[{port:* protocol:*}] refs:[{name:*}] strategy:{type:*}}}"
	if got != want {
		t.Errorf("Thing's shape:\n got %s\nwant %s", got, want)
	}
}

// TestApplyTables: the apply tables keep every type reachable from a kind,
// field by field (the merge tables drop what merges as unknown), the
// untyped types, and the defaults of key fields only.
func TestApplyTables(t *testing.T) {
	g := testGraph(t)
	src, err := g.emitApply("v0.99.1", []string{"k8s.io/client-go@v0.99.1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := format.Source(src); err != nil {
		t.Fatalf("emitted Go does not parse: %v\n%s", err, src)
	}
	for _, want := range []string{
		"package apply",
		`{"io.k8s.api.x.v1.Port", `, `{"io.k8s.api.x.v1.Cond", `, `{"__untyped_deduced_", `,
		`{"x.example.io/v1", "Thing", `,
		`var applyDefaults = [...]any{int(0), "TCP", "", }`, // port, protocol; name (gofmt tidies the comma)
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("output lacks %s:\n%s", want, src)
		}
	}
	if strings.Contains(string(src), "ThingList") {
		t.Errorf("output keeps a type no kind reaches:\n%s", src)
	}
}
