package treediff

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

func parse(t *testing.T, s string) *yaml.Node {
	t.Helper()
	n, err := yaml.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return n.YNode()
}

// lines renders changes as "where op old -> new" for comparison.
func lines(cs []Change) string {
	var out []string
	for _, c := range cs {
		s := c.Where() + " " + c.Op.String()
		if c.Old != nil && c.Old.Kind == yaml.ScalarNode {
			s += " " + c.Old.Value
		}
		if c.New != nil && c.New.Kind == yaml.ScalarNode {
			s += " -> " + c.New.Value
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func TestDiff(t *testing.T) {
	deploy := schema.Builtin().Lookup("apps/v1", "Deployment")
	for _, c := range []struct {
		name, old, new string
		typ            *schema.Type
		want           string
	}{
		{"nothing", "a: 1\nb: [x]", "b: [x]\na: 1", nil, ""},
		{"scalar", "a: 1", "a: 2", nil, "a changed 1 -> 2"},
		{"type", "a: 1", "a: '1'", nil, "a changed 1 -> 1"},
		{"style only", "a: x", "a: 'x'", nil, ""},
		{"added and removed", "a: 1\nb: 2", "a: 1\nc: {d: 1}", nil, "c added\nb removed 2"},
		{"another kind", "a: {b: 1}", "a: [1]", nil, "a changed"},
		{"null to value", "a: null", "a: 1", nil, "a changed null -> 1"},
		{"scalars whole", "args: [a, b]", "args: [a, c]", nil, "args changed"},
		{"keys with dots", "metadata: {annotations: {a.b/c: x}}", "metadata: {annotations: {a.b/c: y}}", nil, "metadata.annotations.[a.b/c] changed x -> y"},
		{"by place", "l: [{a: 1}, {a: 2}]", "l: [{a: 1}, {a: 3}]", nil, "l[1].a changed 2 -> 3"},
		{"by name", "l: [{name: x, a: 1}]", "l: [{name: x, a: 2}]", nil, "l[name=x].a changed 1 -> 2"},
		{"grown", "l: [{a: 1}]", "l: [{a: 1}, {a: 2}]", nil, "l[1] added"},
		{"shrunk", "l: [{a: 1}, {a: 2}]", "l: [{a: 2}]", nil, "l[0] removed"},
		{"reordered", "l: [{a: 1}, {a: 2}]", "l: [{a: 2}, {a: 1}]", nil, ""},
		{"keyed", "spec: {template: {spec: {containers: [{name: a, image: x}, {name: b, image: y}]}}}",
			"spec: {template: {spec: {containers: [{name: b, image: z}, {name: c, image: w}]}}}", deploy,
			"spec.template.spec.containers[name=b].image changed y -> z\nspec.template.spec.containers[name=c] added\nspec.template.spec.containers[name=a] removed"},
		{"ports keyed by two keys", "spec: {template: {spec: {containers: [{name: a, ports: [{containerPort: 80, protocol: TCP, name: x}]}]}}}",
			"spec: {template: {spec: {containers: [{name: a, ports: [{containerPort: 80, protocol: TCP, name: y}]}]}}}", deploy,
			"spec.template.spec.containers[name=a].ports[containerPort=80,protocol=TCP].name changed x -> y"},
		{"set", "spec: {template: {spec: {securityContext: {supplementalGroups: [1, 2]}}}}",
			"spec: {template: {spec: {securityContext: {supplementalGroups: [2, 3]}}}}", nil,
			"spec.template.spec.securityContext.supplementalGroups changed"},
		{"alias", "x: &a {b: 1}\ny: *a", "x: {b: 1}\ny: {b: 2}", nil, "y.b changed 1 -> 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Diff(parse(t, c.old), parse(t, c.new), Options{Type: c.typ})
			if err != nil {
				t.Fatal(err)
			}
			if s := lines(got); s != c.want {
				t.Errorf("got\n%s\nwant\n%s", s, c.want)
			}
		})
	}
}

// Elements kept in place are aligned by identity, through a Snapshot,
// whatever their content: a list without keys whose first element moved
// is no change, and an element changed in place is the same element.
func TestSnapshotIdentity(t *testing.T) {
	root := parse(t, "l:\n- {a: 1}\n- {a: 2}\n- {a: 3}\n")
	before, err := Snapshot(root)
	if err != nil {
		t.Fatal(err)
	}
	l := root.Content[1]
	l.Content = []*yaml.Node{l.Content[2], l.Content[0]} // drop {a: 2}, move {a: 3} first
	l.Content[0].Content[1].Value = "4"
	got, err := Diff(before.Root(), root, Options{Origin: before.Origin})
	if err != nil {
		t.Fatal(err)
	}
	if s := lines(got); s != "l[0].a changed 3 -> 4\nl[1] removed" {
		t.Errorf("got\n%s", s)
	}
	if before.Origin(&yaml.Node{}) != nil {
		t.Error("a node that was not in the tree has an origin")
	}
}

// The copy is not the tree: changing the tree leaves it as it was, and an
// alias of the copy points into the copy.
func TestSnapshotCopies(t *testing.T) {
	root := parse(t, "a: &x {b: 1}\nc: *x\n")
	before, err := Snapshot(root)
	if err != nil {
		t.Fatal(err)
	}
	root.Content[1].Content[1].Value = "2"
	if v := before.Root().Content[1].Content[1].Value; v != "1" {
		t.Errorf("the copy changed with the tree: %s", v)
	}
	alias := before.Root().Content[3]
	if alias.Kind != yaml.AliasNode || alias.Alias != before.Root().Content[1] {
		t.Error("the copy's alias does not point at the copy of its anchor")
	}
	empty, _ := Snapshot(nil)
	if empty.Root() != nil {
		t.Error("an empty snapshot has a root")
	}
}

// A string the caller says holds a document is compared inside; one that
// does not parse, or another string, changes whole.
func TestDocuments(t *testing.T) {
	old := parse(t, "data:\n  app.json: '{\"server\": {\"port\": 80}, \"x\": [1]}'\n  other: a\n")
	new := parse(t, "data:\n  app.json: '{\"server\": {\"port\": 8080}, \"x\": [1]}'\n  other: b\n")
	o := Options{Document: func(a, b *yaml.Node) (*schema.Type, bool) { return nil, strings.HasPrefix(a.Value, "{") }}
	got, err := Diff(old, new, o)
	if err != nil {
		t.Fatal(err)
	}
	if s := lines(got); s != "data.[app.json].server.port changed 80 -> 8080\ndata.other changed a -> b" {
		t.Errorf("got\n%s", s)
	}
	if str, in := got[0].Inside(); str != "data.[app.json]" || in != "server.port" || got[0].Doc != 2 {
		t.Errorf("Inside: %q %q (Doc %d)", str, in, got[0].Doc)
	}
	if str, in := got[1].Inside(); str != "data.other" || in != "" {
		t.Errorf("Inside of a plain change: %q %q", str, in)
	}
	broken := parse(t, "data: {app.json: '{\"a\": 1}'}")
	got, _ = Diff(broken, parse(t, "data: {app.json: '{\"a\": '}"), o)
	if s := lines(got); !strings.HasPrefix(s, "data.[app.json] changed") {
		t.Errorf("a document that no longer parses: %s", s)
	}
}

// A changed string the caller does not say holds a document is not read
// as one: a patch changing a resource's values paid for parsing every
// old and new value as a YAML document (a fifth of what a multi-patch run
// allocated).
func TestOnlyDocumentsRead(t *testing.T) {
	old := parse(t, "data: {app.json: '{\"server\": {\"port\": 80}, \"x\": [1, 2, 3]}'}")
	new := parse(t, "data: {app.json: '{\"server\": {\"port\": 8080}, \"x\": [1, 2, 3]}'}")
	o := Options{Document: func(_, _ *yaml.Node) (*schema.Type, bool) { return nil, false }}
	var got []Change
	allocs := testing.AllocsPerRun(20, func() { got, _ = Diff(old, new, o) })
	if s := lines(got); !strings.HasPrefix(s, "data.[app.json] changed") {
		t.Errorf("got %s", s)
	}
	if allocs > 10 {
		t.Errorf("%.0f allocations for one changed string: read as a document", allocs)
	}
}

// Paths hold positions, for code that edits the tree.
func TestPaths(t *testing.T) {
	got, _ := Diff(parse(t, "l: [{name: a}, {name: b, v: 1}]"), parse(t, "l: [{name: b, v: 2}]"), Options{})
	if len(got) != 2 || got[0].Path.String() != "l.0.v" || got[1].Path.String() != "l.0" || got[1].Op != Removed {
		for _, c := range got {
			t.Logf("%s %s", c.Path, c.Op)
		}
		t.Error("unexpected paths")
	}
}

// A tree larger than MaxNodes, or whose aliases expand past it, is an
// error, not unbounded work.
func TestTooLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := range 8 {
		name := fmt.Sprintf("l%d", i)
		fmt.Fprintf(&b, "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", name, name, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = name
	}
	bomb := parse(t, b.String())
	other := parse(t, strings.Replace(b.String(), "[x, x,", "[y, x,", 1))
	if _, err := Diff(bomb, other, Options{}); err != ErrTooLarge {
		t.Errorf("an alias bomb: got %v", err)
	}
	big := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, MaxNodes)}
	x := &yaml.Node{Kind: yaml.ScalarNode, Value: "x"}
	for i := range big.Content {
		big.Content[i] = x // one node a million times: counted as many
	}
	if _, err := Snapshot(big); err != ErrTooLarge {
		t.Errorf("a big tree: got %v", err)
	}
}

// One Copy taken of tree after tree, larger and smaller, copies each
// exactly, reuses its memory (no allocation for a tree that fits), and
// still refuses a tree past MaxNodes, leaving no root behind.
func TestTakeReuses(t *testing.T) {
	var c Copy
	trees := []string{
		"a: {b: [1, 2, 3]}\nc: d\n",
		"x: 1\n",
		"a: &y {b: [1, 2, 3, 4, 5, 6, 7, 8]}\nc: [*y, {d: [e, f, g]}]\nh: {i: {j: {k: l}}}\n",
		"a: {b: [1, 2]}\n",
	}
	for _, src := range trees {
		tree := parse(t, src)
		if err := c.Take(tree); err != nil {
			t.Fatal(err)
		}
		if got, want := render(t, c.Root()), render(t, tree); got != want {
			t.Errorf("copy of\n%s\nis\n%s", want, got)
		}
		if c.Origin(tree.Content[1]) != c.Root().Content[1] {
			t.Error("the copy's origins are not the tree's")
		}
	}
	small := parse(t, trees[3])
	if allocs := testing.AllocsPerRun(10, func() { _ = c.Take(small) }); allocs != 0 {
		t.Errorf("%.0f allocations to take a tree that fits", allocs)
	}
	big := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, MaxNodes)}
	for i := range big.Content {
		big.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Value: "x"}
	}
	if err := c.Take(big); err != ErrTooLarge || c.Root() != nil {
		t.Errorf("a big tree after small ones: %v, root %v", err, c.Root())
	}
}

func render(t *testing.T, n *yaml.Node) string {
	t.Helper()
	s, err := yaml.String(n)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// BenchmarkTake copies a Deployment, as a watched step does before each
// resource it patches.
func BenchmarkTake(b *testing.B) {
	n, err := yaml.Parse(takeBench)
	if err != nil {
		b.Fatal(err)
	}
	var c Copy
	for b.Loop() {
		if err := c.Take(n.YNode()); err != nil {
			b.Fatal(err)
		}
	}
}

const takeBench = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  labels: {app: app, team: a}
  annotations: {config.kubernetes.io/path: apps/app.yaml}
spec:
  replicas: 2
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers:
      - name: app
        image: example/app:1
        ports: [{containerPort: 8080}]
        env: [{name: MODE, value: fast}]
`

// Diffs one after the other reuse the way down: a Deployment whose
// replicas changed costs the change (its path, words, the list of
// changes) and aligning its containers by name, 15 allocations, not a
// new stack too (19).
func TestDiffReusesItsWay(t *testing.T) {
	old, new := parse(t, takeBench), parse(t, strings.Replace(takeBench, "replicas: 2", "replicas: 3", 1))
	var got []Change
	allocs := testing.AllocsPerRun(20, func() { got, _ = Diff(old, new, Options{}) })
	if s := lines(got); s != "spec.replicas changed 2 -> 3" {
		t.Errorf("got %s", s)
	}
	if allocs > 15 {
		t.Errorf("%.0f allocations for one change", allocs)
	}
}
