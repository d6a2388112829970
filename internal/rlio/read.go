package rlio

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// KyamlEnv names the environment variable that, set to 1, makes FromEnv
// return the kyaml codec.
const KyamlEnv = "PATCHWORK_KYAML_IO"

// Codec reads and writes ResourceLists. The zero value is the fast codec;
// Kyaml: true does everything through kyaml's own functions (the reference
// the fast codec is tested and benchmarked against).
type Codec struct {
	Kyaml bool
	// Encode writes every item encoded, none as the bytes it was read
	// from: the fast writer alone, which the tests hold to kyaml's bytes.
	Encode bool
}

// FromEnv is the codec the binaries use: the fast one, unless KyamlEnv is
// set to 1.
func FromEnv() Codec {
	return Codec{Kyaml: os.Getenv(KyamlEnv) == "1"}
}

// List is a ResourceList as read, or to be written.
type List struct {
	// APIVersion and Kind are the wrapping object's; Kind is "" when the
	// input was not a wrapped list at all (kyaml's reader then returns
	// its documents as items).
	APIVersion, Kind string
	Items            []*yaml.RNode
	FunctionConfig   *yaml.RNode
	Results          *yaml.RNode
	// Unchanged, set by the runner, says an item is as it was read: such
	// an item is written as the bytes it was read from where those can be
	// placed (listspans.go). nil writes every item.
	Unchanged func(*yaml.RNode) bool
	// src is where the items were read from (the fast codec's reading of
	// a ResourceList).
	src *listSource
}

// Read decodes a ResourceList with kyaml's reader, as kio.ByteReadWriter
// does. Both codecs read this way: there is one reader. The fast codec
// also places each item in raw, for Write to copy those the function did
// not change (List.Unchanged).
func (c Codec) Read(raw []byte) (*List, error) {
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(raw), KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return nil, err
	}
	if rw.WrappingKind == kio.ResourceListKind {
		if err := checkOneDocument(raw); err != nil {
			return nil, err
		}
	}
	l := &List{APIVersion: rw.WrappingAPIVersion, Kind: rw.WrappingKind,
		Items: items, FunctionConfig: rw.FunctionConfig, Results: rw.Results}
	if !c.Kyaml && !c.Encode && l.Kind == kio.ResourceListKind {
		l.src = placeItems(raw, items)
	}
	return l, nil
}

// checkOneDocument refuses a ResourceList that YAML reads as more than one
// document. kyaml's reader splits the input on "---" lines and decodes one
// document from each part, silently dropping any later document yaml.v3
// finds in a part: one that starts after a "..." line, or after a line
// break kyaml does not split on (U+2028, U+2029, U+0085, a lone carriage
// return; YAML counts them all as line breaks), where a value holding
// "<U+2028>---" would make the rest of the list vanish. Only inputs holding
// one of those pay for the second decode.
func checkOneDocument(raw []byte) error {
	text := raw
	if bytes.IndexByte(raw, '\r') >= 0 {
		text = bytes.ReplaceAll(raw, []byte("\r\n"), []byte("\n")) // as kyaml's reader reads it
	}
	if !mayHoldMoreDocuments(text) {
		return nil
	}
	more, next := secondDocument(text)
	if !more {
		return nil
	}
	where := ""
	if next != nil {
		where = fmt.Sprintf(" at line %d (as YAML counts lines)", next.Line)
	}
	return fmt.Errorf("YAML reads a second document%s, after a \"...\" line or a line break other than \\n "+
		"(U+2028, U+2029, U+0085 or a lone \\r, which YAML counts as line breaks); a ResourceList is one document, "+
		"and reading only the first would silently drop the rest", where)
}

// documentEnds are what YAML may start a document after where kyaml's
// reader does not split: a "..." line, and the line breaks kyaml does not
// split on.
var documentEnds = [][]byte{[]byte("\n..."), []byte("\r"), []byte("\u2028"), []byte("\u2029"), []byte("\u0085")}

// mayHoldMoreDocuments reports whether text holds any of documentEnds, so
// that only those inputs pay for a second decode (one search each:
// bytes.ContainsAny decodes every rune).
func mayHoldMoreDocuments(text []byte) bool {
	if bytes.HasPrefix(text, []byte("...")) {
		return true
	}
	for _, end := range documentEnds {
		if bytes.Contains(text, end) {
			return true
		}
	}
	return false
}

// secondDocument reports whether yaml.v3 reads a document after the first
// one in text, and gives it (nil when it failed to decode). A first
// document yaml.v3 cannot read is left alone: kyaml read it, and only what
// follows it matters.
func secondDocument(text []byte) (more bool, next *yaml.Node) {
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var first yaml.Node
	if err := dec.Decode(&first); err != nil {
		return false, nil
	}
	var doc yaml.Node
	err := dec.Decode(&doc)
	switch {
	case errors.Is(err, io.EOF):
		return false, nil
	case err != nil:
		return true, nil
	case yaml.IsYNodeEmptyDoc(&doc):
		return false, nil
	}
	return true, &doc
}
