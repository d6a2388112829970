package rlio

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// viaYAMLv3 is what emitItem must write: the node as the one entry of a
// block sequence, through yaml.v3 as kyaml sets it up.
func viaYAMLv3(t testing.TB, n *yaml.Node) (string, bool) {
	var buf bytes.Buffer
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = os.ErrInvalid // yaml.v3 refuses the tree (it panics on some)
			}
		}()
		return encode(&buf, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}}, false)
	}()
	return buf.String(), err == nil
}

// sameAsYAMLv3 checks emitItem against yaml.v3 on n and reports whether
// emitItem took it.
func sameAsYAMLv3(t testing.TB, n *yaml.Node) bool {
	t.Helper()
	var e itemEmitter
	e.out = append(e.out, "prefix\n"...)
	ok := e.emitItem(n)
	got := strings.TrimPrefix(string(e.out), "prefix\n")
	if !ok {
		if got != "" {
			t.Fatalf("emitItem refused but wrote %q", got)
		}
		return false
	}
	want, encoded := viaYAMLv3(t, n)
	if !encoded {
		t.Fatalf("emitItem wrote %q for a tree yaml.v3 refuses", got)
	}
	if got != want {
		t.Fatalf("emitItem wrote\n%s\nyaml.v3 writes\n%s\ntree: %s", quoteLines(got), quoteLines(want), dumpTree(n))
	}
	return true
}

func quoteLines(s string) string {
	return strings.ReplaceAll(s, " ", "·")
}

func dumpTree(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		b.WriteString("\n" + strings.Repeat("  ", depth))
		b.WriteString(strings.Join([]string{
			[]string{"?", "doc", "seq", "map", "scalar", "alias"}[min(int(n.Kind)&7, 5)],
			"tag=" + n.Tag, "style=" + string(rune('0'+int(n.Style))), "value=" + strings.ReplaceAll(n.Value, "\n", `\n`),
			"head=" + n.HeadComment, "line=" + n.LineComment, "foot=" + n.FootComment}, " "))
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// values are scalars that test the emitter's choice of style.
var values = []string{
	"", "a", "app-1", "example/app:1", "8080", "0", "-1", "+1", "1.5", ".5", "1e3", "0x1F", "0o17", "1_000", "08",
	"true", "True", "false", "yes", "no", "on", "off", "y", "n", "null", "Null", "~", ".inf", "-.inf", ".nan",
	"2001-12-14", "2001-12-14T21:59:43.10-05:00", "12:30:45", "1:20", "<<", "-", "--", "---", "...", "- a", "-a",
	"?", "? a", "?a", ":", ": a", "a:", "a: b", "a:b", "#", "#a", "a #b", "a#b", " a", "a ", " ", "a  b",
	"'", "''", "a'b", "\"", "a\"b", `a\b`, "[a]", "{a}", "a,b", "&a", "*a", "!a", "|", ">", "%a", "@a", "`a",
	"a\nb", "a\n", "\n", "\n\n", "a\n\n", "a\n\nb", " a\nb", "a \nb", "a\n b", "a\n\n b\n", "  lead\n", "x\n ",
	strings.Repeat("long ", 30), strings.Repeat("k", 129), "tab\there", "é", "a\rb", "\x1b",
}

var tags = []string{"", "!!str", "!!str", "!!str", "!!int", "!!bool", "!!null", "!!float", "!!timestamp",
	"tag:yaml.org,2002:str", "!custom", "!!binary"}

var styles = []yaml.Style{0, 0, 0, 0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle, yaml.LiteralStyle,
	yaml.FoldedStyle, yaml.FlowStyle, yaml.TaggedStyle}

var comments = []string{"", "", "", "", "", "# c", "c", "# a\n# b", "# a\n\n# b", "#", "# é"}

// randomNode builds a tree of the shapes resources have, and odd ones.
func randomNode(r *rand.Rand, depth int) *yaml.Node {
	pick := func(l []string) string { return l[r.Intn(len(l))] }
	comment := func() string {
		if r.Intn(3) == 0 {
			return pick(comments)
		}
		return ""
	}
	kind := r.Intn(5)
	if depth > 3 {
		kind = 0
	}
	switch kind {
	case 0, 1:
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: pick(values), Tag: pick(tags), LineComment: comment(), HeadComment: comment()}
		if r.Intn(3) == 0 {
			n.Style = styles[r.Intn(len(styles))]
		}
		if r.Intn(40) == 0 {
			n.Anchor = "x"
		}
		if r.Intn(30) == 0 {
			n.FootComment = "# f"
		}
		return n
	case 2, 3:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: comment()}
		for i, size := 0, r.Intn(4); i < size; i++ {
			k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: pick(values), HeadComment: comment()}
			if r.Intn(4) != 0 {
				k.Value = pick([]string{"name", "image", "metadata", "data", "k" + pick(values)})
			}
			if r.Intn(30) == 0 {
				k.LineComment = "# kl"
			}
			n.Content = append(n.Content, k, randomNode(r, depth+1))
		}
		if r.Intn(6) == 0 {
			n.Style = yaml.FlowStyle
		}
		if r.Intn(30) == 0 {
			n.LineComment = "# ml"
		}
		return n
	default:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", HeadComment: comment()}
		for i, size := 0, r.Intn(4); i < size; i++ {
			n.Content = append(n.Content, randomNode(r, depth+1))
		}
		if r.Intn(6) == 0 {
			n.Style = yaml.FlowStyle
		}
		return n
	}
}

// TestEmitItemFlowSameAsYAMLv3: flow lists and maps of every scalar value,
// style and tag (what RBAC rules and labels hold: verbs: ["get", "list"],
// labels: {app: x}), as block values and list entries.
func TestEmitItemFlowSameAsYAMLv3(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	taken := 0
	for i := 0; i < 20000; i++ {
		flow := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		if i%2 == 0 {
			flow.Kind = yaml.MappingNode
		}
		size := r.Intn(4)
		if flow.Kind == yaml.MappingNode {
			size *= 2 // keys and values
		}
		for j := 0; j < size; j++ {
			c := &yaml.Node{Kind: yaml.ScalarNode, Value: values[r.Intn(len(values))], Tag: tags[r.Intn(len(tags))]}
			if r.Intn(2) == 0 {
				c.Style = styles[r.Intn(len(styles))]
			}
			flow.Content = append(flow.Content, c)
		}
		item := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "rules"}, flow}}
		if i%3 == 0 {
			item = &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{flow}}
		}
		if sameAsYAMLv3(t, item) {
			taken++
		}
	}
	if taken < 5000 {
		t.Fatalf("emitItem took only %d of 20000 flow items", taken)
	}
	t.Logf("emitItem took %d of 20000 flow items", taken)
}

// TestEmitItemSameAsYAMLv3: on random trees, whatever emitItem writes is
// what yaml.v3 writes; and it takes most of them (a test that always
// refuses would pass the comparison).
func TestEmitItemSameAsYAMLv3(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	taken, n := 0, 30000
	for i := 0; i < n; i++ {
		if sameAsYAMLv3(t, randomNode(r, 0)) {
			taken++
		}
	}
	t.Logf("emitItem took %d of %d random trees", taken, n)
	if taken < n/4 {
		t.Fatalf("emitItem took only %d of %d random trees", taken, n)
	}
}

// TestEmitItemTakesResources: every item of every golden input comes out
// the same, and emitItem writes nearly all of them itself.
func TestEmitItemTakesResources(t *testing.T) {
	taken, total := 0, 0
	for _, doc := range goldenDocuments(t, true) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc.text), &n) != nil || len(n.Content) != 1 {
			continue
		}
		total++
		if sameAsYAMLv3(t, n.Content[0]) {
			taken++
		} else {
			t.Logf("left to yaml.v3: %s", doc.path)
		}
	}
	t.Logf("emitItem took %d of %d documents", taken, total)
	if total < 100 || taken < total*8/10 {
		t.Fatalf("emitItem took %d of %d documents", taken, total)
	}
}

// goldenDocument is a YAML document from a golden input or an example.
type goldenDocument struct{ path, text string }

// goldenDocuments are the documents of every golden input, and of every
// example package's files when examples is true.
func goldenDocuments(tb testing.TB, examples bool) []goldenDocument {
	paths, _ := filepath.Glob("../../pkg/*/testdata/*/input.yaml")
	if examples {
		more, _ := filepath.Glob("../../examples/*/*.yaml")
		paths = append(paths, more...)
	}
	var docs []goldenDocument
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---\n") {
			docs = append(docs, goldenDocument{path, doc})
		}
	}
	return docs
}

// FuzzEmitItem: any YAML document, with its nodes' styles varied, is
// written by emitItem as yaml.v3 writes it, or left to yaml.v3.
func FuzzEmitItem(f *testing.F) {
	f.Add("apiVersion: v1\nkind: ConfigMap # c\ndata:\n  # h\n  a: |\n    x\n  b: '1'\n", uint8(0))
	f.Add("- a\n- - b\n  - {}\n- []\n- k: v\n  l:\n  - 1\n", uint8(3))
	f.Add("a: \"x\\ny\"\nb: ' lead'\nc: |2-\n   x\n", uint8(7))
	for _, doc := range goldenDocuments(f, false) {
		f.Add(doc.text, uint8(len(doc.text)))
	}
	f.Fuzz(func(t *testing.T, doc string, vary uint8) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(doc), &n) != nil || len(n.Content) != 1 {
			return
		}
		root := n.Content[0]
		if vary != 0 {
			r := rand.New(rand.NewSource(int64(vary)))
			var walk func(n *yaml.Node)
			walk = func(n *yaml.Node) {
				if n.Kind == yaml.ScalarNode && r.Intn(3) == 0 {
					n.Style = styles[r.Intn(len(styles))]
					n.Tag = tags[r.Intn(len(tags))]
				}
				for _, c := range n.Content {
					walk(c)
				}
			}
			walk(root)
		}
		sameAsYAMLv3(t, root)
	})
}
