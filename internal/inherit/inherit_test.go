package inherit

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

func parse(t *testing.T, s string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(s), &n); err != nil {
		t.Fatal(err)
	}
	return n.Content[0]
}

func encode(t *testing.T, n *yaml.Node) string {
	t.Helper()
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Expand means what a YAML reader reads: the own key wins over a merged
// one, the first merged map over later ones, aliases become copies.
func TestExpand(t *testing.T) {
	n := parse(t, `a: &a {x: 1, y: 1}
b: &b {y: 2, z: 2}
c:
  w: 0
  <<: [*a, *b]
  x: 3
d: *a
'<<': quoted
`)
	if !Contains(n) {
		t.Fatal("Contains = false")
	}
	e, err := Expand(n, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := encode(t, e)
	want := `a: {x: 1, y: 1}
b: {y: 2, z: 2}
c:
    w: 0
    y: 1
    z: 2
    x: 3
d: {x: 1, y: 1}
'<<': quoted
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if Contains(e) {
		t.Error("the expanded copy still holds a << key")
	}
	// the original is untouched
	if !strings.Contains(encode(t, n), "<<: [*a, *b]") {
		t.Errorf("Expand changed its input:\n%s", encode(t, n))
	}
	var decoded, fromCopy any
	_ = n.Decode(&decoded)
	_ = e.Decode(&fromCopy)
	if encodeAny(t, decoded) != encodeAny(t, fromCopy) {
		t.Errorf("the copy means %v, the original %v", fromCopy, decoded)
	}
}

func encodeAny(t *testing.T, v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestExpandErrors(t *testing.T) {
	for _, doc := range []string{
		"a: {<<: 1}\n",
		"a: {<<: [1]}\n",
		// an alias bomb
		"a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
			"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
	} {
		if _, err := Expand(parse(t, doc), nil); err == nil {
			t.Errorf("%q: no error", doc)
		}
	}
}

// yaml.v3 writes a parsed << key back as "!!merge <<"; untagged it is
// written as it was read, and still read as a << key.
func TestUntag(t *testing.T) {
	src := "a: &a {x: 1}\nb:\n    <<: *a\n    y: 2\n"
	n := parse(t, src)
	if got := encode(t, n); got == src {
		t.Log("yaml.v3 no longer tags << keys on output; Untag may go")
	}
	Untag(n)
	if got := encode(t, n); got != src {
		t.Errorf("got\n%s\nwant\n%s", got, src)
	}
	var v struct{ B map[string]int }
	if err := yaml.Unmarshal([]byte(encode(t, n)), &v); err != nil || v.B["x"] != 1 {
		t.Errorf("the untagged << key is not read as one: %v %v", v, err)
	}
}

// A merged key that readers take for an own key spelled otherwise (00 for
// 0) is that key: the own one wins, and no map comes out with both (a
// finding of the value merge's fuzzing, FuzzMergeKeyed/8ba0895fd16b27e7).
func TestExpandOwnKeySpelledOtherwise(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("d: &d {00: a, 1: c}\nm: {<<: *d, 0: b}\n"), &doc); err != nil {
		t.Fatal(err)
	}
	flat, err := Expand(doc.Content[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(flat.Content[3])
	if err != nil {
		t.Fatal(err)
	}
	if want := "{1: c, 0: b}\n"; string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}

// Check refuses a << key whose value no reader merges, wherever it is,
// and lets pass maps, lists of maps, aliases of maps and a quoted "<<".
func TestCheck(t *testing.T) {
	for text, bad := range map[string]bool{
		"<<: 0\n":                     true,
		"a: {b: {<<: [{x: 1}, 2]}}\n": true,
		"- <<: [a]\n":                 true,
		"<<: {x: 1}\n":                false,
		"<<: [{x: 1}, {y: 2}]\n":      false,
		"a: &a {x: 1}\nb: {<<: *a}\n": false,
		"\"<<\": 0\n":                 false,
		"a: &s 0\nb: {<<: *s}\n":      true,
		"a: {b: 1}\n":                 false,
	} {
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if err := Check(&doc); (err != nil) != bad {
			t.Errorf("Check(%q) = %v, want an error: %v", text, err, bad)
		}
	}
}
