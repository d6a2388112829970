package rlio

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// fragments are the pieces FuzzStreamSpans builds streams of: resources
// in block and flow styles, comments between and inside them, Helm's
// whitespace-only lines and "# Source:" comments, document markers with
// and without comments, empty documents, block scalars that hold "---".
var fragments = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\ndata: { \"x\": \"1\" }\n",
	"{apiVersion: v1, kind: Service, metadata: {name: c}, spec: {ports: [ {port: 80} ]}}\n",
	"kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: app\n          resources:\n            {}\n",
	"kind: Pod\nspec:\n  containers:\n  - name: a # trailing\n    args: [ \"a\" ]\n",
	"data:\n  script: |\n    echo one\n    ---\n    echo two\n\n",
	"data:\n  folded: >-\n    one\n    two\n",
	"---\n", "--- # a marker with a comment\n", "---   \n",
	"# Source: chart/templates/a.yaml\n", "# a comment between items\n\n",
	"  \n", "\n", "    \n\n",
	"kind: List\napiVersion: v1\nitems:\n- kind: ConfigMap\n  metadata: {name: d}\n- kind: SecretList\n  items: []\n",
	"x: &a {k: v}\ny: *a\n",
	"...\n",
	"---\nkind: Foo\n...\n",
	"--- |\n  text\n",
	"---foo\n",
	"a: \"multi\n---\n  line\"\n",
}

// FuzzStreamSpans holds the spans ReadStream places each resource in to
// kyaml's reading of the whole stream: every span read alone by kyaml's
// reader gives the resource kyaml reads there in the whole stream, the
// spans and what lies between them are the stream, and a stream nothing
// changes is written back as it was read.
func FuzzStreamSpans(f *testing.F) {
	for i := range 40 {
		f.Add(uint64(i), uint8(6))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8) {
		raw := buildStream(seed, int(n%12))
		checkSpans(t, raw)
	})
}

// FuzzStreamBytes is FuzzStreamSpans on any bytes: the fuzzer's mutations
// of streams built of fragments (indentation, markers, comments and flow
// collections cut and spliced anywhere) hold the spans to kyaml's reading
// just the same.
func FuzzStreamBytes(f *testing.F) {
	for i := range 20 {
		f.Add(buildStream(uint64(i), 5))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 4096 {
			return // a stream's spans do not need a long one
		}
		checkSpans(t, raw)
	})
}

// buildStream joins n fragments chosen by seed, with a "---" line between
// some of them.
func buildStream(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed>>7))
	var b strings.Builder
	for range n {
		b.WriteString(fragments[r.IntN(len(fragments))])
		if r.IntN(3) > 0 {
			b.WriteString("---\n")
		}
	}
	return []byte(b.String())
}

// checkSpans checks ReadStream on raw against kyaml's reader.
func checkSpans(t *testing.T, raw []byte) {
	t.Helper()
	want, kerr := readKyaml(raw)
	s, err := ReadStream(raw)
	if (err != nil) != (kerr != nil) {
		t.Fatalf("ReadStream error %v, kyaml's %v\n%s", err, kerr, raw)
	}
	if err != nil {
		return
	}
	if len(s.Docs) != len(want) {
		t.Fatalf("%d resources, kyaml reads %d\n%s", len(s.Docs), len(want), raw)
	}
	var whole strings.Builder
	for i, src := range s.Docs {
		if got, w := encodeAlone(t, src.Node), encodeAlone(t, want[i]); got != w {
			t.Fatalf("resource %d reads\n%s\nkyaml reads\n%s\nin\n%s", i, got, w, raw)
		}
		whole.WriteString(src.Lead + src.Text)
	}
	if s.Docs == nil || s.Docs[0].Text == "" {
		return // not placed: read as kyaml reads it, written whole
	}
	whole.WriteString(s.Tail())
	if whole.String() != string(raw) {
		t.Fatalf("the spans are not the stream:\n%q\nwant\n%q", whole.String(), raw)
	}
	if out := unchanged(t, s); out != string(raw) {
		t.Fatalf("written back as\n%q\nread\n%q", out, raw)
	}
}

// unchanged writes a stream back with nothing changed.
func unchanged(t *testing.T, s *Stream) string {
	var docs []Out
	for _, src := range s.Docs {
		docs = append(docs, Out{Lead: src.Lead, Text: src.Text})
	}
	var b bytes.Buffer
	if err := WriteStream(&b, docs, s.Tail()); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func encodeAlone(t *testing.T, n *yaml.RNode) string {
	t.Helper()
	s, err := n.String()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The corner cases, one by one: where YAML and kyaml's reader split
// alike, each resource is placed; where they do not, none is, and the
// resources are kyaml's.
func TestStreamSpans(t *testing.T) {
	for _, c := range []struct {
		in     string
		placed bool
	}{
		{"---\n# Source: a.yaml\nkind: A\n---\n# Source: empty.yaml\n---\nkind: B\n  \n", true},
		{"kind: A\n...\n---\nkind: B\n", true},
		{"kind: A\n---\n...\nkind: B\n", false},
		{"kind: A\r\n---\r\nkind: B\r\n", true},
		{"kind: A\rb: 1\n", false},
		{"kind: A\n--- {kind: B}\n", false},
		{"# only a comment\n", true},
		{"", true},
		{"kind: A", true},
		{"data:\n  s: |\n    ---\n", true},
	} {
		t.Run(strings.ReplaceAll(c.in, "\n", "|"), func(t *testing.T) {
			checkSpans(t, []byte(c.in))
			s, err := ReadStream([]byte(c.in))
			if err != nil {
				if !c.placed {
					return
				}
				t.Fatal(err)
			}
			if got := len(s.Docs) == 0 || s.Docs[0].Text != ""; got != c.placed {
				t.Errorf("placed %v, want %v", got, c.placed)
			}
		})
	}
}
