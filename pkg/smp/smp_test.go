package smp

import (
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

func TestIsDeleteDirective(t *testing.T) {
	for _, c := range []struct {
		patch string
		want  bool
	}{
		{"$patch: delete\nkind: Deployment", true},
		{"$patch: replace\nkind: Deployment", false},
		{"kind: Deployment", false},
		{"spec: {$patch: delete}", false},
		{"- $patch: delete", false},
	} {
		if got := IsDeleteDirective(parse(t, c.patch)); got != c.want {
			t.Errorf("IsDeleteDirective(%q) = %v", c.patch, got)
		}
	}
	if IsDeleteDirective(nil) {
		t.Error("IsDeleteDirective(nil) = true")
	}
}

func TestMergeRefuses(t *testing.T) {
	dst := parse(t, "a: 1")
	for _, c := range []struct {
		name  string
		patch *yaml.RNode
		err   string
	}{
		{"a deleting patch", parse(t, "$patch: delete"), "deletes the whole resource"},
		{"a nil patch", nil, "the patch is empty"},
		{"a null patch", parse(t, "null"), "the patch is empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Merge(dst, c.patch, nil)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Merge: %v, want %q", err, c.err)
			}
			if got := str(t, dst); got != "a: 1\n" {
				t.Errorf("dst changed to %q", got)
			}
		})
	}
	if err := Merge(nil, parse(t, "a: 1"), nil); err == nil {
		t.Error("Merge into nil: no error")
	}
	if err := Validate(parse(t, "$patch: delete"), nil); err != nil {
		t.Errorf("Validate of a deleting patch: %v", err)
	}
}

func TestErrorFormat(t *testing.T) {
	err := error(&Error{Path: "spec.ports", Msg: "boom"})
	if err.Error() != "spec.ports: boom" {
		t.Errorf("Error() = %q", err.Error())
	}
	if (&Error{Msg: "boom"}).Error() != "boom" {
		t.Error("a root error should be the message alone")
	}
	var se *Error
	if !errors.As(Merge(parse(t, "a: 1"), parse(t, "a: {$patch: x}"), nil), &se) || se.Path != "a" {
		t.Errorf("want *Error with path a, got %#v", se)
	}
}

func TestFormatPath(t *testing.T) {
	ports := containerPortT
	el := parse(t, "{containerPort: 53}").YNode()
	for _, c := range []struct {
		path []seg
		want string
	}{
		{nil, ""},
		{[]seg{{field: "spec"}, {field: "ports"}}, "spec.ports"},
		{[]seg{{field: "ports"}, {elem: true, index: 3, node: el, list: ports}}, "ports[containerPort=53,protocol=TCP]"},
		{[]seg{{field: "args"}, {elem: true, index: 2}}, "args[2]"},
		{[]seg{{field: "list"}, {elem: true, index: 1, node: el, list: keyedList(nil, "name")}}, "list[1]"},
		{[]seg{{field: "annotations"}, {field: "a.b/c"}}, "annotations.[a.b/c]"},
	} {
		if got := formatPath(c.path); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// The document node wrapper some callers keep is looked through.
func TestDocumentNodes(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\n"), &doc); err != nil {
		t.Fatal(err)
	}
	var pdoc yaml.Node
	if err := yaml.Unmarshal([]byte("b: 2\n"), &pdoc); err != nil {
		t.Fatal(err)
	}
	dst, patch := yaml.NewRNode(&doc), yaml.NewRNode(&pdoc)
	if err := Merge(dst, patch, nil); err != nil {
		t.Fatal(err)
	}
	if got := str(t, dst); got != "a: 1\nb: 2\n" {
		t.Errorf("got %q", got)
	}
	empty := yaml.NewRNode(&yaml.Node{Kind: yaml.DocumentNode})
	if err := Merge(empty, patch, nil); err != nil {
		t.Fatal(err)
	}
	if got := str(t, empty); got != "b: 2\n" {
		t.Errorf("got %q", got)
	}
}

func TestRootTypeMismatch(t *testing.T) {
	dst := parse(t, "a: 1")
	keep := dst.YNode()
	if err := Merge(dst, parse(t, "[x]"), nil); err != nil {
		t.Fatal(err)
	}
	if got := str(t, dst); got != "[x]\n" {
		t.Errorf("got %q", got)
	}
	if dst.YNode() != keep {
		t.Error("the root node must stay the same node")
	}
}

func TestAliases(t *testing.T) {
	runCases(t, []mergeCase{{
		name:  "merging into an alias merges into a copy; the anchor stays",
		dst:   "base: &b {x: 1}\nuse: *b",
		patch: "use: {y: 2}",
		want:  "base: &b {x: 1}\nuse: {x: 1, \"y\": 2}",
	}, {
		name:  "deleting an anchored value expands its aliases",
		dst:   "base: &b {x: 1}\nuse: *b\nalso: [*b]",
		patch: "base: null",
		want:  "use: {x: 1}\nalso: [{x: 1}]",
	}, {
		name:  "changing an anchored value changes what its aliases stand for (YAML semantics)",
		dst:   "base: &b [1]\nuse: *b\nmap: &m {a: 1}\nalso: *m",
		patch: "base: [2]\nmap: {b: 2}",
		want:  "base: &b [2]\nuse: *b\nmap: &m {a: 1, b: 2}\nalso: *m",
	}, {
		name:  "replacing an anchored value by another kind expands its aliases",
		dst:   "base: &b [1]\nuse: *b",
		patch: "base: {x: 1}",
		want:  "base: {x: 1}\nuse: [1]",
	}, {
		name:  "aliases in the patch are copied as values",
		dst:   "a: 1",
		patch: "p: &p {x: 1}\nq: *p",
		want:  "a: 1\np: {x: 1}\nq: {x: 1}",
	}, {
		name:  "reordering an anchored element before its alias expands the alias",
		t:     namedT,
		dst:   "list: [{name: a, v: &v {x: 1}}, {name: b, v: *v}]",
		patch: "$setElementOrder/list: [{name: b}, {name: a}]",
		want:  "list: [{name: b, v: {x: 1}}, {name: a, v: &v {x: 1}}]",
	}, {
		name:  "keys are matched through aliases",
		t:     namedT,
		dst:   "n: &n a\nlist: [{name: *n, v: 1}]",
		patch: "list: [{name: a, v: 2}]",
		want:  "n: &n a\nlist: [{name: *n, v: 2}]",
	}})
}

func TestAliasBomb(t *testing.T) {
	bomb := "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" +
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n" +
		"g: [*f,*f,*f,*f,*f,*f,*f,*f,*f]"
	err := Merge(parse(t, "z: 1"), parse(t, bomb), nil)
	if err == nil || !strings.Contains(err.Error(), "YAML aliases expand to too many nodes: this would produce more than 1Mi nodes, the work limit of one operation") {
		t.Errorf("a patch alias bomb: %v", err)
	}
	// What the merge may add is charged to the budget it is given.
	_, err = MergeWith(parse(t, "z: 1"), parse(t, "a: [1, 2, 3]\nb: {c: 4}"), nil, Options{Budget: budget.Limits(5, 100)})
	if err == nil || !strings.Contains(err.Error(), "more than 5 nodes") {
		t.Errorf("a patch over the budget given: %v", err)
	}
	// A document bomb is harmless until the patch reaches into it.
	dst := parse(t, bomb)
	if err := Merge(dst, parse(t, "z: 1"), nil); err != nil {
		t.Errorf("patching beside a document bomb: %v", err)
	}
	err = Merge(dst, parse(t, "g: {x: 1}"), nil)
	if err != nil {
		t.Errorf("replacing a document bomb: %v", err)
	}
}

// One patch is applied to many resources, possibly at once: Merge only reads
// it. Run with -race to make this test meaningful.
func TestConcurrentMergesShareAPatch(t *testing.T) {
	patch := parse(t, benchPatch)
	want := ""
	done := make(chan string)
	for range 8 {
		d := parse(t, benchDeployment)
		go func() {
			if err := Merge(d, patch, deploymentT); err != nil {
				done <- err.Error()
				return
			}
			done <- d.MustString()
		}()
	}
	for range 8 {
		got := <-done
		if want == "" {
			want = got
		}
		if got != want {
			t.Errorf("results differ:\n%s\n%s", got, want)
		}
	}
}

// A document with YAML << keys that the patch changes is merged as
// readers see it and written expanded; one the patch leaves alone keeps
// its spelling; a merge key no reader accepts is merged as written.
func TestMergeKeys(t *testing.T) {
	runCases(t, []mergeCase{{
		name:  "deleting an inherited value deletes it",
		dst:   "d: &d {a: 1, b: 2}\nm:\n  <<: *d\n  c: 3",
		patch: "m: {a: null}",
		want:  "d: {a: 1, b: 2}\nm:\n  b: 2\n  c: 3",
	}, {
		name:  "editing the anchored map leaves the merging map as it was",
		dst:   "d: &d {a: 1}\nm:\n  <<: *d\n  c: 3",
		patch: "d: {a: 5}",
		want:  "d: {a: 5}\nm:\n  a: 1\n  c: 3",
	}, {
		name:  "a patch that changes nothing keeps the merge key",
		dst:   "d: &d {a: 1}\nm:\n  <<: *d\n  c: 3",
		patch: "m: {a: 1}",
		// (yaml.v3 writes a parsed merge key "!!merge <<"; fnrun untags it)
		want: "d: &d {a: 1}\nm:\n  !!merge <<: *d\n  c: 3",
	}, {
		name:  "an invalid merge key is merged as written",
		dst:   "m:\n  <<: 1\n  c: 3",
		patch: "m: {c: 4}",
		want:  "m:\n  !!merge <<: 1\n  c: 4",
	}})
}
