package fnrun

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// diffTrees returns where two trees differ ("" when they do not), every
// field of every node compared.
func diffTrees(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s:\n  parseItem %s\n  yaml.v3   %s", path, describeNode(a), describeNode(b))
	}
	for i := range a.Content {
		if d := diffTrees(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

func describeNode(n *yaml.Node) string {
	return fmt.Sprintf("kind=%d style=%d tag=%q value=%q head=%q line=%q foot=%q at %d:%d, %d children",
		n.Kind, n.Style, n.Tag, n.Value, n.HeadComment, n.LineComment, n.FootComment, n.Line, n.Column, len(n.Content))
}

// sameAsYAMLv3Parse checks parseItem against yaml.v3 on a chunk and
// reports whether parseItem took it.
func sameAsYAMLv3Parse(t testing.TB, text string, line int) bool {
	t.Helper()
	var p itemParser
	got, err := p.parseItem([]byte(text), line+1)
	if err != nil {
		return false
	}
	want, err := decodeItem(itemChunk{text: []byte(text), line: line})
	if err != nil {
		t.Fatalf("parseItem read a chunk yaml.v3 refuses (%v):\n%s", err, text)
	}
	if d := diffTrees(got, want, ""); d != "" {
		t.Fatalf("parseItem and yaml.v3 differ at %s\nchunk:\n%s", d, text)
	}
	return true
}

// TestParseItemSameAsYAMLv3: random trees, written by yaml.v3 as entries
// (and with comments, blank lines and odd spacing added), read the same
// both ways; and parseItem takes a good share of them.
func TestParseItemSameAsYAMLv3(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	taken, n := 0, 30000
	for i := 0; i < n; i++ {
		text, ok := viaYAMLv3(t, randomNode(r, 0))
		if !ok || text == "" {
			continue
		}
		switch r.Intn(6) {
		case 0: // blank lines between lines
			text = strings.Replace(text, "\n", "\n\n", 1+r.Intn(3))
		case 1: // an item indented under "items:"
			text = "  " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n  ") + "\n"
		case 2: // trailing spaces
			text = strings.Replace(text, "\n", "   \n", 1)
		case 3: // no final line break
			text = strings.TrimSuffix(text, "\n")
		}
		if sameAsYAMLv3Parse(t, text, r.Intn(100)) {
			taken++
		}
	}
	t.Logf("parseItem took %d of %d random chunks", taken, n)
	if taken < n/5 {
		t.Fatalf("parseItem took only %d of %d random chunks", taken, n)
	}
}

// trickyChunks are entries whose reading has rules of its own.
var trickyChunks = []string{
	"- a:\n  c: 1\n", "- a:\n", "- a:   \n\n", "- a: b   # c  \n", "- a: |\n    x\n\n  b: 1\n", "- a: {}\n  b: []\n",
	"- x\n", "- - a\n  - b\n", "- - - a\n", "-   a: 1\n    b: 2\n", "- a: 'it''s' # q\n", "- a: \"x y\"\n",
	"- a: |-\n    x\n\n    y\n\n", "- a: |+\n    x\n\n\n", "- a: |\n    x\n  \n", "- a: |\n      x\n    y\n",
	"- a: b\n  c\n", "- a:\n  - b\n  - c\n  d: e\n", "- a:\n    - b\n", "- a:\n- b\n", "- a: b: c\n", "- a: x#y\n",
	"- a: -1\n  b: 1e3\n  c: 0x1F\n  d: 2001-12-14\n  e: 12:30:45\n  f: .5\n  g: -\n  h: true\n  i: ~\n", "- 8080: x\n",
	"- a: 'x'y\n", "- a: \"x\\\"y\"\n", "- a: [x]\n", "- a: {} # c\n", "- a: |2\n   x\n", "- a: >\n    x\n",
	"- a: !t x\n", "- a: &x b\n  c: *x\n", "- ? a\n  : b\n", "- a : b\n", "- <<: {}\n", "- a:\n  # c\n  b: 1\n",
	"- 'a': b\n", "- a: 'x\n    y'\n", "- a: |\n\n    x\n", "- a: |\n  x\n", "- a: b\n   c: d\n", "- a: b\n -c\n",
	"-\n  a: 1\n", "- a: ---\n", "- a: ...x\n", "- a: -x\n  b: ?x\n  c: :x\n", "- a: b # c\n  d:\n    e: f\n",
}

func TestParseItemTricky(t *testing.T) {
	taken := 0
	for _, c := range trickyChunks {
		if sameAsYAMLv3Parse(t, c, 3) {
			taken++
		}
	}
	t.Logf("parseItem took %d of %d tricky chunks", taken, len(trickyChunks))
}

// TestParseItemTakesResources: every golden input document, as an item,
// reads the same; and parseItem takes most of them.
func TestParseItemTakesResources(t *testing.T) {
	taken, total := 0, 0
	for _, doc := range goldenDocuments(t, true) {
		if strings.TrimSpace(doc.text) == "" {
			continue
		}
		total++
		if sameAsYAMLv3Parse(t, indentAsItem(doc.text), 7) {
			taken++
		}
	}
	t.Logf("parseItem took %d of %d documents", taken, total)
	if total < 100 || taken < total/2 {
		t.Fatalf("parseItem took %d of %d documents", taken, total)
	}
}

// indentAsItem makes a document an entry of a block sequence.
func indentAsItem(doc string) string {
	lines := strings.Split(strings.TrimRight(doc, "\n"), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = "- " + lines[i]
		} else if lines[i] != "" {
			lines[i] = "  " + lines[i]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// FuzzParseItem: whatever parseItem reads, yaml.v3 reads the same way.
func FuzzParseItem(f *testing.F) {
	for _, c := range trickyChunks {
		f.Add(c)
	}
	for _, doc := range goldenDocuments(f, false) {
		f.Add(indentAsItem(doc.text))
	}
	f.Fuzz(func(t *testing.T, chunk string) {
		sameAsYAMLv3Parse(t, chunk, 0)
	})
}

// TestParseItemBoundsDepth: an item nested deeper than maxDepth ("- - - …",
// two bytes a level) is left to yaml.v3 rather than read by recursion
// without bound.
func TestParseItemBoundsDepth(t *testing.T) {
	var p itemParser
	shallow := strings.Repeat("- ", maxDepth-1) + "x\n"
	if _, err := p.parseItem([]byte(shallow), 1); err != nil {
		t.Fatalf("%d levels refused: %v", maxDepth-1, err)
	}
	deep := strings.Repeat("- ", 100000) + "x\n"
	if _, err := p.parseItem([]byte(deep), 1); err == nil {
		t.Fatal("100,000 levels read")
	}
	// the parser is usable again after refusing
	sameAsYAMLv3Parse(t, shallow, 0)
}
