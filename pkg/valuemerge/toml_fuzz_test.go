package valuemerge

import (
	"errors"
	"fmt"
	"math/rand"
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
		{influxBase, "r = true\n[monitor]\ns = false\n[[graphite]]\n[[graphite]]\ne = 1\n"},
		{"[[s]]\n  # c\n  n = 1\n  [s.t]\n  u = 2\n\n[[s]]\nn = 3\n", "[[s]]\nm = 2\n[s.v]\nw = 1\n"},
		{"a = 1\n[[b]]\nx = 1\n", "[[a]]\ny = 1\n[b]\nz = 2\n"},
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

// FuzzMergeTOMLLayouts merges TOML texts built from a seed in the layouts
// real configs use (comments and banners, keys indented under headers or
// not, dotted keys, inline tables, multi-line arrays, tables of arrays of
// tables, arrays of tables inside them, sections holding only comments):
// the result decodes to the merge, is written as edits of the base (the
// writer can edit all of these in place), and merging again changes
// nothing.
func FuzzMergeTOMLLayouts(f *testing.F) {
	for seed := int64(0); seed < 16; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		r := rand.New(rand.NewSource(seed))
		base, overlay := genTOML(r), genTOML(r)
		m, err := MergeText(TOML, base, overlay)
		if err != nil {
			return // the two do not merge (a key both a table and a value)
		}
		b, _ := decodeTOML(base, "base")
		o, _ := decodeTOML(overlay, "overlay")
		if !tomlMeans(m.Text, mergeTables(b, o)) || m.Lost != "" {
			t.Fatalf("not merged in place (%s):\n%s\n--- overlay:\n%s\n--- result:\n%s", m.Why, base, overlay, m.Text)
		}
		if again, err := Merge(TOML, m.Text, overlay); err != nil || again != m.Text {
			t.Fatalf("merging twice differs from once (%v):\n%s\n--- twice:\n%s", err, m.Text, again)
		}
	})
}

// genTOML writes a TOML text from r: maybe a head comment and root keys,
// then tables of four kinds, each maybe under a banner.
func genTOML(r *rand.Rand) string {
	var b strings.Builder
	indent := []string{"", "  "}[r.Intn(2)]
	if r.Intn(2) == 0 {
		b.WriteString("# head\n\n")
	}
	if r.Intn(2) == 0 {
		genKeys(r, &b, "")
	}
	headers := []string{"[t%s]", "[[arr]]", "[arr.sub%s]", "  [[arr.r]]", "[t%s.in]", "[[arr.r.s]]"}
	for i := r.Intn(4); i > 0; i-- {
		if r.Intn(3) == 0 {
			b.WriteString("# banner\n\n")
		}
		h := headers[r.Intn(len(headers))]
		if strings.Contains(h, "%s") {
			h = fmt.Sprintf(h, genNames[r.Intn(len(genNames))])
		}
		b.WriteString(h + "\n")
		if r.Intn(3) == 0 {
			b.WriteString(indent + "# only comments\n")
			continue
		}
		genKeys(r, &b, indent)
	}
	return b.String()
}

var genNames = []string{"a", "b", "c", "d"}

// genKeys writes one to three key-values, some under a comment, some
// dotted, maybe a blank line after them.
func genKeys(r *rand.Rand, b *strings.Builder, indent string) {
	values := []string{"0", "1", `"a"`, `"b"`, "[1, 2]", "{x = 1, y = 'z'}", "[\n  1,\n  2,\n]", "true"}
	for i := r.Intn(3); i >= 0; i-- {
		if r.Intn(3) == 0 {
			b.WriteString(indent + "# comment\n")
		}
		k := genNames[r.Intn(len(genNames))]
		if r.Intn(4) == 0 {
			k += "." + genNames[r.Intn(len(genNames))]
		}
		b.WriteString(indent + k + " = " + values[r.Intn(len(values))] + "\n")
	}
	if r.Intn(3) == 0 {
		b.WriteString("\n")
	}
}
