package replacement

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func scalarNode(tag, v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}
}

// TestSetTypes checks the type rule on resource fields: what was a number
// stays one when the new text is a number, a string stays a string (and
// keeps its quotes), a created field or a null takes the source's type.
func TestSetTypes(t *testing.T) {
	doc := `a: 1
b: "2"
c: 'x'
d: null
e: true
f: {x: 1}
`
	tests := []struct {
		path   string
		value  *yaml.Node
		create bool
		want   string
	}{
		{"a", scalarNode("!!str", "5"), false, "a: 5\n"},
		{"a", scalarNode("!!str", "five"), false, "a: five\n"},
		{"b", scalarNode("!!int", "5"), false, `b: "5"` + "\n"},
		{"c", scalarNode("!!str", "it's"), false, "c: 'it''s'\n"},
		{"d", scalarNode("!!int", "5"), false, "d: 5\n"},
		{"d", scalarNode("!!str", "5"), false, `d: "5"` + "\n"},
		{"e", scalarNode("!!str", "false"), false, "e: false\n"},
		{"e", scalarNode("!!str", "maybe"), false, "e: maybe\n"},
		{"f", scalarNode("!!str", "flat"), false, "f: flat\n"},
		{"g.h", scalarNode("!!str", "8080"), true, `g:
  h: "8080"
`},
		{"g.[name=x].v", scalarNode("!!bool", "true"), true, `g:
- name: x
  v: true
`},
	}
	for _, tt := range tests {
		n, err := yaml.Parse(doc)
		if err != nil {
			t.Fatal(err)
		}
		s := &setter{path: fieldpath.MustParse(tt.path), create: tt.create, set: func(*yaml.Node) (*yaml.Node, error) { return tt.value, nil }}
		if err := s.apply(n.YNode()); err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		out, _ := n.String()
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s = %s: got\n%s\nwant it to contain\n%s", tt.path, tt.value.Value, out, tt.want)
		}
	}
}

// TestCreateUnderWildcard: each element the wildcard reaches gets its own
// new field (kustomize refuses create with * altogether).
func TestCreateUnderWildcard(t *testing.T) {
	n, err := yaml.Parse(`containers:
- name: a
- name: b
  env:
  - name: X
    value: old
config: '{"servers": [{"host": "a"}, {"host": "b", "port": 1}]}'
`)
	if err != nil {
		t.Fatal(err)
	}
	set := func(*yaml.Node) (*yaml.Node, error) { return scalarNode("!!str", "v"), nil }
	for _, p := range []string{"containers.*.env.[name=X].value", "config.servers.*.port"} {
		s := &setter{path: fieldpath.MustParse(p), create: true, set: set}
		if err := s.apply(n.YNode()); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	out, _ := n.String()
	want := `containers:
- name: a
  env:
  - name: X
    value: v
- name: b
  env:
  - name: X
    value: v
config: '{"servers": [{"host": "a", "port": "v"}, {"host": "b", "port": "v"}]}'
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestProtectedAnnotations(t *testing.T) {
	n, err := yaml.Parse(`metadata:
  annotations:
    config.kubernetes.io/index: "0"
    internal.config.kubernetes.io/path: a.yaml
    mine: x
`)
	if err != nil {
		t.Fatal(err)
	}
	set := func(*yaml.Node) (*yaml.Node, error) { return scalarNode("!!str", "y"), nil }
	s := &setter{path: fieldpath.MustParse("metadata.annotations.*"), set: set}
	if err := s.apply(n.YNode()); err != nil {
		t.Fatal(err)
	}
	out, _ := n.String()
	for _, want := range []string{`config.kubernetes.io/index: "0"`, "internal.config.kubernetes.io/path: a.yaml", `mine: "y"`} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	s = &setter{path: fieldpath.MustParse(`metadata.annotations.[config.kubernetes.io/index]`), set: set}
	if err := s.apply(n.YNode()); err == nil || !strings.Contains(err.Error(), "belongs to kpt and kustomize") {
		t.Errorf("naming a kpt annotation: got %v", err)
	}
}

func TestGetErrors(t *testing.T) {
	n, err := yaml.Parse(`spec:
  ports:
  - {name: http, port: 80}
  - {name: http, port: 81}
  replicas: 3
`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{"spec.ports.[name=http].port", "2 elements of spec.ports match [name=http]; a source must name one value"},
		{"spec.replicas.x", `spec.replicas holds the number 3, which has no x`},
		{"spec.ports.5", "index 5 is out of range: spec.ports has 2 elements"},
		{"spec.nope", `no field "nope" in spec (keys: "ports", "replicas")`},
	}
	for _, tt := range tests {
		_, err := get(n.YNode(), fieldpath.MustParse(tt.path), embedded.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("get(%s): %v, want %q", tt.path, err, tt.want)
		}
	}
}

func TestLiteral(t *testing.T) {
	tests := []struct{ json, value, tag string }{
		{`"8080"`, "8080", "!!str"},
		{`8080`, "8080", "!!int"},
		{`1.5`, "1.5", "!!float"},
		{`true`, "true", "!!bool"},
	}
	for _, tt := range tests {
		var l Value
		if err := l.UnmarshalJSON([]byte(tt.json)); err != nil {
			t.Errorf("%s: %v", tt.json, err)
			continue
		}
		if l.Value != tt.value || l.Tag != tt.tag {
			t.Errorf("%s: got %s %s, want %s %s", tt.json, l.Tag, l.Value, tt.tag, tt.value)
		}
	}
	var l Value
	if err := l.UnmarshalJSON([]byte(`{"a": 1}`)); err == nil {
		t.Error("a map as sourceValue: want an error")
	}
}

// TestWildcardOverAnnotationsList: a wildcard at metadata.annotations
// passes over kpt's annotations only in a map; annotations that are a list
// (which the runner refuses in items) once made the setter index past the
// list's end.
func TestWildcardOverAnnotationsList(t *testing.T) {
	n, err := yaml.Parse("metadata:\n  annotations: [a, b, c]\n")
	if err != nil {
		t.Fatal(err)
	}
	set := func(*yaml.Node) (*yaml.Node, error) { return scalarNode("!!str", "y"), nil }
	s := &setter{path: fieldpath.MustParse("metadata.annotations.*"), set: set}
	if err := s.apply(n.YNode()); err != nil {
		t.Fatal(err)
	}
	if out, _ := n.String(); out != "metadata:\n  annotations: [\"y\", \"y\", \"y\"]\n" {
		t.Errorf("got\n%s", out)
	}
}
