package rlio

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

// roundTrip reads, migrates, reconciles and writes a list with the codec.
func roundTrip(t *testing.T, c Codec, in []byte) string {
	t.Helper()
	l, err := c.Read(in)
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Migrate(l.Items)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Reconcile(l.Items); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := c.Write(&out, l); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestRealShapesSameAsKyaml: what real manifests hold (comment lines before
// an item, non-ASCII text, escapes, empty flow collections, block scalars
// starting with '#', folded scalars, wide sequences) comes out of the fast
// codec as kyaml's ByteReadWriter writes it. (The corpus of real manifests
// is compared in codec_test.go's TestCorpusSameAsKyaml when it is present.)
func TestRealShapesSameAsKyaml(t *testing.T) {
	in, err := os.ReadFile("testdata/real-shapes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(in), KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	rw.Writer = &want
	if err := rw.Write(items); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Codec{{}, {Kyaml: true}} {
		if got := roundTrip(t, c, in); got != want.String() {
			t.Errorf("codec %+v differs from kio.ByteReadWriter\n--- got\n%s\n--- want\n%s", c, got, want.String())
		}
	}
}

// TestOneDocument: YAML line breaks kyaml's reader does not split on, and
// "..." lines, must not make part of a ResourceList vanish. Each of these
// was read as a shorter list, exit 0, before checkOneDocument.
func TestOneDocument(t *testing.T) {
	const head = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\nitems:\n"
	item := func(note string) string {
		return "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    annotations:\n      note: " + note +
			"\n  data:\n    keep: me\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n"
	}
	refused := map[string]string{
		"U+2028 then ---":  head + item("x\u2028---"),
		"U+2029 then ---":  head + item("x\u2029--- # c"),
		"U+0085 then ---":  head + item("x\u0085---"),
		"lone CR then ---": head + item("x\r---"),
		"U+2028 then ...":  head + item("x\u2028..."),
		"a ... line":       head + item("x") + "...\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n",
	}
	for name, in := range refused {
		t.Run(name, func(t *testing.T) {
			if _, err := (Codec{}).Read([]byte(in)); err == nil || !strings.Contains(err.Error(), "second document") {
				t.Fatalf("want a second-document error, got %v", err)
			}
		})
	}
	// kyaml's reader refuses this itself (the part after "---" is a list)
	if _, err := (Codec{}).Read([]byte(head + item("x") + "...\n--- # c\n- apiVersion: v1\n")); err == nil {
		t.Error("a ... line then a --- line: want an error")
	}
	read := map[string]string{
		"U+2028 in a quoted value":     head + item(`"x\u2028y"`),
		"U+2028 raw in a quoted value": head + item("\"x\u2028y\""),
		"... inside a value":           head + item("etc..."),
		"... in a block scalar":        head + item("|\n        first\n        ...\n        last"),
		"CRLF line ends":               strings.ReplaceAll(head+item("x"), "\n", "\r\n"),
		"a final ... line":             head + item("x") + "...\n",
		"a final ... and a comment":    head + item("x") + "...\n# done\n",
	}
	for name, in := range read {
		t.Run(name, func(t *testing.T) {
			l, err := (Codec{}).Read([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Items) != 2 || l.Items[0].Field("data") == nil {
				t.Fatalf("want both items whole, got %d", len(l.Items))
			}
		})
	}
}
