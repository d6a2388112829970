package scalar

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
)

// FuzzNeedsQuotes checks the quoting decision against the readers
// themselves. For a string s:
//
//   - where yaml.v3 reads "k: s" as the plain scalar s, yaml.v3 and yaml.v2
//     decode it to the string s exactly when the decision says they do
//     (Resolve12, and yaml.v2 being yaml.v3 plus the YAML 1.1 booleans, but
//     for timestamps, which it hands an untyped target as text);
//   - s written as a string the way every writer does (QuoteIfNeeded, then
//     yaml.v3's encoder) reads back as the string s in yaml.v3 and yaml.v2,
//     and where it is written plain, YAML 1.1 reads a string too.
//
// The seeds are the strings of PyYAML's table (testdata) and of issue 19.
func FuzzNeedsQuotes(f *testing.F) {
	for _, s := range []string{"1e_3", "0_x1F", "-_1", "+_.5", "0_o17", "on", "12:30", "0755", "2001-12-14", "<<", "=", "~", "", "a: b", "- x", "1 #c"} {
		f.Add(s)
	}
	if file, err := os.Open("testdata/yaml11-table.txt"); err == nil {
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			if _, q, ok := strings.Cut(sc.Text(), "\t"); ok {
				var s string
				if json.Unmarshal([]byte(q), &s) == nil && len(s) <= 2 || strings.ContainsAny(s, ":_") {
					f.Add(s)
				}
			}
		}
		file.Close()
	}
	f.Fuzz(func(t *testing.T, s string) {
		need := NeedsQuotes(s)
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0xFEFF) {
			return // written as !!binary or escaped; not a question of resolution
		}
		text := []byte("k: " + s + "\n")
		if v, ok := plainValue(text); ok && v.Value == s {
			got3, err3 := decode3(text)
			got2, err2 := decode2(text)
			if err3 == nil && err2 == nil {
				is3 := got3 == any(s)
				is2 := got2 == any(s)
				if is3 != (Resolve12(s) == "!!str") {
					t.Fatalf("%q: yaml.v3 reads %#v, Resolve12 says %s", s, got3, Resolve12(s))
				}
				// yaml.v2 resolves timestamps too, but gives their text
				// to an untyped target
				r12 := Resolve12(s)
				if is2 != ((r12 == "!!str" || r12 == "!!timestamp") && !v2Booleans[s]) {
					t.Fatalf("%q: yaml.v2 reads %#v; yaml.v3 says %s, v2Booleans %v", s, got2, Resolve12(s), v2Booleans[s])
				}
				if !need && (!is3 || !is2) {
					t.Fatalf("%q may be plain, but yaml.v3 reads %#v and yaml.v2 %#v", s, got3, got2)
				}
			}
		}
		// written as a string value, by the project's rule and yaml.v3
		n := &yaml3.Node{Kind: yaml3.ScalarNode, Tag: "!!str", Value: s}
		QuoteIfNeeded(n)
		var buf bytes.Buffer
		enc := yaml3.NewEncoder(&buf)
		if err := enc.Encode(&yaml3.Node{Kind: yaml3.MappingNode, Content: []*yaml3.Node{{Kind: yaml3.ScalarNode, Value: "k"}, n}}); err != nil {
			return
		}
		enc.Close()
		out := buf.Bytes()
		if got, err := decode3(out); err != nil || got != any(s) {
			t.Fatalf("%q written as\n%s\nyaml.v3 reads %#v (%v)", s, out, got, err)
		}
		if got, err := decode2(out); err != nil || got != any(s) {
			t.Fatalf("%q written as\n%s\nyaml.v2 reads %#v (%v)", s, out, got, err)
		}
		if v, ok := plainValue(out); ok && Resolve11(v.Value) != "!!str" {
			t.Fatalf("%q written plain as\n%s\nYAML 1.1 reads %s", s, out, Resolve11(v.Value))
		}
	})
}

// plainValue parses a one-key map and returns its value when it is a plain
// scalar without a tag.
func plainValue(text []byte) (*yaml3.Node, bool) {
	var doc yaml3.Node
	if err := yaml3.Unmarshal(text, &doc); err != nil || len(doc.Content) != 1 {
		return nil, false
	}
	m := doc.Content[0]
	if m.Kind != yaml3.MappingNode || len(m.Content) != 2 {
		return nil, false
	}
	v := m.Content[1]
	if v.Kind != yaml3.ScalarNode || v.Style != 0 {
		return nil, false
	}
	return v, true
}

func decode3(text []byte) (any, error) {
	var m map[string]any
	err := yaml3.Unmarshal(text, &m)
	return m["k"], err
}

func decode2(text []byte) (any, error) {
	var m map[string]any
	err := yaml2.Unmarshal(text, &m)
	return m["k"], err
}

// FuzzCanBePlain holds CanBePlain and Printable to yaml.v3's emitter: a
// string without a line break, given to the encoder untagged and without a
// style, comes out plain exactly when CanBePlain says it may, as a block
// map's value and as a flow list's element; and written plain, it reads
// back as itself.
func FuzzCanBePlain(f *testing.F) {
	for _, s := range []string{"a", "a😀", "\u00a0x", "x\u00a0", "a'b", "a#b", "a #b", "a:b", "a: b", "a:", ":a", "?a", "-a", "- a", "-",
		"---x", "...", "a,b", "[a", "a]", "a\tb", "a\u2028b", "a\u0085", "\ufeffa", "a\ufffd", "\x7f", "a b", " a", "a "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Contains(s, "\n") {
			return // yaml.v3 writes these !!binary or as a block scalar
		}
		for _, inFlow := range []bool{false, true} {
			v := &yaml3.Node{Kind: yaml3.ScalarNode, Value: s}
			var doc *yaml3.Node
			if inFlow {
				doc = &yaml3.Node{Kind: yaml3.SequenceNode, Style: yaml3.FlowStyle, Content: []*yaml3.Node{v}}
			} else {
				doc = &yaml3.Node{Kind: yaml3.MappingNode, Content: []*yaml3.Node{{Kind: yaml3.ScalarNode, Value: "k"}, v}}
			}
			out, err := yaml3.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			var back yaml3.Node
			if err := yaml3.Unmarshal(out, &back); err != nil {
				t.Fatalf("%q written as %q does not parse: %v", s, out, err)
			}
			got := back.Content[0].Content[len(back.Content[0].Content)-1]
			plain := got.Style == 0
			if plain != CanBePlain(s, inFlow) {
				t.Fatalf("%q (in flow: %v): yaml.v3 writes %q, CanBePlain says %v", s, inFlow, out, CanBePlain(s, inFlow))
			}
			if plain && got.Value != s {
				t.Fatalf("%q written plain as %q reads back as %q", s, out, got.Value)
			}
		}
	})
}
