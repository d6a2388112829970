package valuemerge

import (
	"errors"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"
)

// FuzzMergeTOML: any base and overlay either fail with a ParseError or
// merge into text that decodes to the merge of the two decoded values, and
// merging again changes nothing.
func FuzzMergeTOML(f *testing.F) {
	for _, s := range [][2]string{
		{containerdBase, "[grpc]\nx = 1\n[new.t]\ny = [1, 2]\n"},
		{"a.b = 1\n[c]\nd = 2\n", "a.e = 'x'\nc.f = 3\n"},
		{"[[s]]\nn = 1\n", "[[s]]\nn = 2\n"},
		{"a = {b = 1}\n", "[a]\nc = 2\n"},
		{"t = 1979-05-27T07:32:00-08:00\n", "u = 1979-05-27\n"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, overlay string) {
		out, err := Merge(TOML, base, overlay)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error that is not a ParseError: %v", err)
			}
			return
		}
		var b, o map[string]any
		if strings.TrimSpace(base) != "" && toml.Unmarshal([]byte(base), &b) != nil || toml.Unmarshal([]byte(overlay), &o) != nil {
			t.Fatalf("merged texts that do not decode")
		}
		if !tomlMeans(out, mergeTables(b, o)) {
			t.Fatalf("the result does not decode to the merge:\n%s", out)
		}
		again, err := Merge(TOML, out, overlay)
		if err != nil || again != out {
			t.Fatalf("merging twice differs from once (%v):\nonce:\n%s\ntwice:\n%s", err, out, again)
		}
	})
}
