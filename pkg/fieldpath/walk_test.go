package fieldpath

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// omap is a map of the toy tree selected in and walked here, its keys in
// order.
type omap struct {
	keys []string
	vals []any
}

func om(kv ...any) *omap {
	m := &omap{}
	for i := 0; i < len(kv); i += 2 {
		m.keys = append(m.keys, kv[i].(string))
		m.vals = append(m.vals, kv[i+1])
	}
	return m
}

// goTree is a toy document: *omap, []any and string. A key "dup" cannot be
// looked up, as a key given twice in some trees cannot.
type goTree struct{}

func (goTree) Shape(n any) Shape {
	switch n.(type) {
	case *omap:
		return Map
	case []any:
		return List
	case string:
		return Scalar
	}
	return Other
}
func (goTree) Len(n any) int {
	if m, ok := n.(*omap); ok {
		return len(m.keys)
	}
	return len(n.([]any))
}
func (goTree) Lookup(n any, key string) (int, error) {
	if key == "dup" {
		return 0, errors.New("dup appears twice")
	}
	for j, k := range n.(*omap).keys {
		if k == key {
			return j, nil
		}
	}
	return -1, nil
}
func (goTree) Element(n any, i int) any { return n.([]any)[i] }
func (t goTree) Field(n any, key string) (string, bool) {
	j, _ := t.Lookup(n, key)
	if j < 0 {
		return "", false
	}
	v, ok := n.(*omap).vals[j].(string)
	return v, ok
}
func (goTree) Value(n any) string { return n.(string) }
func (goTree) Child(n any, pos int) any {
	if m, ok := n.(*omap); ok {
		return m.vals[pos]
	}
	return n.([]any)[pos]
}
func (goTree) Key(n any, pos int) string { return n.(*omap).keys[pos] }

var _ Walkable[any] = goTree{}

// ends renders what a walk returned: a place as the way there and the
// value, a dead end as the way there, the segment and why.
func ends(es []End[any], path Path) string {
	var out []string
	for _, e := range es {
		way := Taken[any](goTree{}, e.Steps).String()
		if !e.Dead {
			out = append(out, fmt.Sprintf("%s=%v", way, e.Node))
			continue
		}
		why := "empty"
		switch {
		case e.Sel.Missing:
			why = "missing"
		case e.Sel.OutOfRange:
			why = "out of range"
		case e.Sel.Mismatch:
			why = "mismatch"
		}
		out = append(out, fmt.Sprintf("%s: %s %s", way, path[e.At], why))
	}
	return strings.Join(out, "; ")
}

func walkDoc() any {
	return om(
		"spec", om(
			"containers", []any{
				om("name", "app", "image", "a", "ports", []any{"80", "443"}),
				om("name", "proxy", "image", "b"),
				om("name", "app-sidecar", "image", "c", "ports", []any{}),
			},
			"replicas", "3",
		),
		"data", om("config.json", "{}", "empty", om()),
	)
}

func TestWalk(t *testing.T) {
	cases := []struct{ path, want string }{
		{"spec.replicas", "spec.replicas=3"},
		{"spec.containers.[name=proxy].image", "spec.containers.1.image=b"},
		{"spec.containers.*.image", "spec.containers.0.image=a; spec.containers.1.image=b; spec.containers.2.image=c"},
		// Depth first, in order; the dead ends where they are met.
		{"spec.containers.*.ports.0", "spec.containers.0.ports.0=80; spec.containers.1: ports missing; spec.containers.2.ports: 0 missing"},
		{"spec.containers.[name=app.*].ports.*", "spec.containers.0.ports.0=80; spec.containers.0.ports.1=443; spec.containers.2.ports: * empty"},
		{`data.config\.json.servers`, `data.config\.json: servers mismatch`},
		{"spec.containers.5", "spec.containers: 5 out of range"},
		{"spec.containers.name", "spec.containers: name mismatch"},
		{"spec.[name=x]", "spec: [name=x] mismatch"},
		{"spec.containers.[name=none]", "spec.containers: [name=none] missing"},
		{"data.empty.*", "data.empty: * empty"},
		{"nope.x", ": nope missing"},
	}
	for _, c := range cases {
		p := MustParse(c.path)
		es, err := Walk[any](goTree{}, walkDoc(), p)
		if got := ends(es, p); err != nil || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.path, got, err, c.want)
		}
	}
}

// TestWalkCheck: Check may narrow a selection, and its error ends the walk
// at once; so does a key the tree cannot look up.
func TestWalkCheck(t *testing.T) {
	p := MustParse("spec.containers.*.image")
	skipApp := func(n any, i int, sel *Selection) error {
		if p[i].Kind == Wildcard {
			sel.Positions = sel.Positions[1:]
		}
		return nil
	}
	es, err := Walker[any]{Tree: goTree{}, Check: skipApp}.Walk(walkDoc(), p, 0)
	if got := ends(es, p); err != nil || got != "spec.containers.1.image=b; spec.containers.2.image=c" {
		t.Errorf("narrowed: %s %v", got, err)
	}

	one := func(n any, i int, sel *Selection) error {
		if len(sel.Positions) > 1 {
			return fmt.Errorf("%s selects %d", p[i], len(sel.Positions))
		}
		return nil
	}
	if _, err := (Walker[any]{Tree: goTree{}, Check: one}).Walk(walkDoc(), p, 0); err == nil || err.Error() != "* selects 3" {
		t.Errorf("refused: %v", err)
	}

	if _, err := Walk[any](goTree{}, om("a", om("dup", "x")), MustParse("a.dup")); err == nil || err.Error() != "dup appears twice" {
		t.Errorf("lookup error: %v", err)
	}
}

// TestWalkFrom: a walk may start part way along the path, from the node
// reached there; At counts in the whole path, Steps from that node.
func TestWalkFrom(t *testing.T) {
	p := MustParse("spec.containers.[name=proxy].image")
	containers := walkDoc().(*omap).vals[0].(*omap).vals[0]
	es, err := Walker[any]{Tree: goTree{}}.Walk(containers, p, 2)
	if err != nil || len(es) != 1 || es[0].Node != "b" || es[0].At != 4 || Taken[any](goTree{}, es[0].Steps).String() != "1.image" {
		t.Errorf("from containers: %+v %v", es, err)
	}
}

// TestReaches: a path reaches the end of a walk's steps when each of its
// segments selects the step taken there, indexes compared like the rest.
func TestReaches(t *testing.T) {
	doc := walkDoc()
	es, _ := Walk[any](goTree{}, doc, MustParse("spec.containers.1.image"))
	steps := es[0].Steps
	cases := []struct {
		path string
		want bool
	}{
		{"spec.containers.1.image", true},
		{"spec.containers.1.image.x", true}, // longer: the rest goes on below
		{"spec.containers.[name=proxy].image", true},
		{"spec.containers.[name=p.*].image", true},
		{"spec.containers.*.image", true},
		{"spec.containers.0.image", false}, // another element
		{"spec.containers.[name=app].image", false},
		{"spec.containers.1.name", false},
		{"spec.containers.1", false}, // shorter: it stops above the end
		{"*.containers.1.image", true},
	}
	for _, c := range cases {
		if got := Reaches[any](goTree{}, MustParse(c.path), steps); got != c.want {
			t.Errorf("%s reaches %s: got %v", c.path, Taken[any](goTree{}, steps), got)
		}
	}
}

// TestNoMatch: a matcher that selects nothing is told the pattern it meant
// (a glob, a needless anchor) or the nearest value there, with the values
// there unless hidden; only a literal value is one to create.
func TestNoMatch(t *testing.T) {
	list := []any{om("name", "shop-api"), om("name", "istio-proxy")}
	for _, c := range []struct {
		path, want string
		literal    bool
	}{
		{"[name=shop-*]", " (a pattern is a regular expression, not a shell glob: did you mean [name=shop-.*]?)", false},
		{"[name=^shop-]", " (patterns match the whole value, so ^ and $ are implied: did you mean [name=shop-.*]?)", false},
		{"[name=*.a.com]", " (a pattern is a regular expression, not a shell glob: did you mean [name=.*.a.com]?)", false},
		{"[name=shop-ap]", " (did you mean [name=shop-api]? values of name there: shop-api, istio-proxy)", true},
		{"[name=web-.*]", " (values of name there: shop-api, istio-proxy)", false},
	} {
		got, literal := NoMatch[any](goTree{}, list, MustParse(c.path)[0], false)
		if got != c.want || literal != c.literal {
			t.Errorf("%s: %q, %v; want %q, %v", c.path, got, literal, c.want, c.literal)
		}
	}
	if got, _ := NoMatch[any](goTree{}, list, MustParse("[name=shop-ap]")[0], true); got != "" {
		t.Errorf("hidden: %q, want nothing", got)
	}
}

// TestDottedKeyHint: a key that holds dots, written unescaped, is told with
// the path that escapes them.
func TestDottedKeyHint(t *testing.T) {
	doc := om("api.json", "{}", "app.yaml", "")
	want := ` (the key "api.json" contains dots: escape them, data.api\.json.server)`
	if got := DottedKeyHint[any](goTree{}, doc, MustParse("data.api.json.server"), 1); got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got := DottedKeyHint[any](goTree{}, doc, MustParse("data.api.yaml"), 1); got != "" {
		t.Errorf("no such key: %q", got)
	}
}
