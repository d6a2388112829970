package yamlerr

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestLocate(t *testing.T) {
	cases := []struct {
		name, text string
		line       int
		words      string
	}{
		{"misindented key", "apiVersion: v1\nkind: MultiPatch\nmetadata:\n  name: p\npatches:\n- target:\n    kind: Deployment\n    name: api\n   patch: |\n    spec: {}\n",
			9, "matches no key above it"},
		{"second colon", "a:\n  b: 1\n  c: x: y\n", 3, "a ': ' where a plain value goes"},
		{"tab indentation", "a:\n  b: 1\n\tc: 2\n", 3, "tab in the indentation"},
		{"misindented list entry", "a:\n  - x\n  - y\n - z\n", 4, "matches no"},
		{"unclosed quote", "a: \"abc\nb: 1\n\n", 2, "never closed"},
		// the line the collection opened on, where it needs closing
		{"unclosed flow", "a: [1, 2\nb: 1\n", 1, "not closed"},
		{"unclosed flow, later", "a: 1\nb: {c: 1\nd: 1\ne: 2\n", 2, "not closed"},
		// issue 30: a field path's [ in a flow map was blamed on the last line
		{"bracket in a flow value", "a:\n- b: 1\n- select: {kind: Service, fieldPath: spec.ports.[name=http].port}\n  c: 1\n- d:\n    e: 1\n",
			3, `quote the value, as in {fieldPath: "spec.ports.[name=http].port"}`},
		{"bracket in a flow value, first line", "a: {b: x.[c=d].e}\nf: 1\n", 1, "quote the value"},
		{"at sign", "a:\n  b: @x\n", 2, "quote it"},
		{"entry among keys", "a:\n  b: 1\n  - c\n", 3, ""},
		{"second document", "a: 1\n---\nb: 1\n  c: 2\n", 4, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(c.text), &n)
			if c.name == "second document" {
				dec := yaml.NewDecoder(strings.NewReader(c.text))
				for err == nil {
					err = dec.Decode(&n)
				}
			}
			s, ok := Locate([]byte(c.text), err)
			if !ok {
				t.Fatalf("not located: %v", err)
			}
			if s.Line != c.line || !strings.Contains(s.Problem, c.words) {
				t.Fatalf("got %v (yaml.v3: %v); want line %d and %q", s, err, c.line, c.words)
			}
			line := strings.Split(c.text, "\n")[c.line-1]
			if !strings.HasPrefix(line, strings.TrimSuffix(s.Shown, " …")) {
				t.Fatalf("shown %q is not the start of line %q", s.Shown, line)
			}
		})
	}
}

func TestLocateNotSyntax(t *testing.T) {
	if _, ok := Locate([]byte("a: 1"), nil); ok {
		t.Error("nil error located")
	}
	var v struct{ A int }
	err := yaml.Unmarshal([]byte("a: x"), &v)
	if _, ok := Locate([]byte("a: x"), err); ok {
		t.Errorf("a type error located: %v", err)
	}
}

// TestElide: a line is shown up to its key, never with a value, which may
// be a Secret's.
func TestElide(t *testing.T) {
	for line, want := range map[string]string{
		"   patch: |":                   "   patch: …",
		"  password: hunter2: x":        "  password: …",
		"\tcpu: 1":                      "\tcpu: …",
		" - z":                          " - …",
		"- - name: x":                   "- - name: …",
		"  key:":                        "  key:",
		"  password:\tcorrect horse: x": "  password: …",
		"  a:b: c":                      "  a:b: …",
		"- [a, b]: c":                   "- …",
		"  &anchor secret: x":           "  …",
		"  s3cr3t-without-a-colon":      "  …",
		"  \"quoted: key\": v":          "  …",
		strings.Repeat("k", 90) + ": v": "…",
	} {
		if got := elide(line); got != want {
			t.Errorf("elide(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestShownNeverAValue: a line is shown up to its key only where YAML
// reads a key there; a line that goes on with a value (of several lines,
// plain or quoted, or inside a [list]) is named by its number alone, and
// a key ends at its ':' before a tab too (issue 28, item 1).
func TestShownNeverAValue(t *testing.T) {
	const head = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n"
	for _, c := range []struct {
		name, text, shown string
	}{
		{"tab after the key", head + "  password:\tcorrect horse: battery staple\n", "  password: …"},
		{"plain value going on", head + "  password: first words\n    correcthorse: battery\n", ""},
		{"plain value going on, as a list entry", head + "  password: first words\n    - correcthorse: battery\n", ""},
		{"quoted value going on, bad escape", head + "  password: \"first words\n    correcthorse \\q battery\"\n", ""},
		{"quoted value never closed", head + "  password: \"first words\n    correcthorse: battery\n", ""},
		// told at the line the map opened on (issue 30), shown to its key
		{"inside a flow map", head + "  x: {a: 1,\n    correcthorse: battery: x}\n", "  x: …"},
		{"a quoted list entry", "a:\n- \"correct horse: battery\" x\n", "- …"},
		{"a key after a plain value", head + "  password: first words\n token: x\n", " token: …"},
		{"a key after a block value", head + "  password: |\n    first words\n   token: x\n", "   token: …"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(c.text), &n)
			s, ok := Locate([]byte(c.text), err)
			if !ok {
				t.Fatalf("not located: %v", err)
			}
			if s.Shown != c.shown {
				t.Errorf("line %d shown as %q, want %q (%v)", s.Line, s.Shown, c.shown, s)
			}
			for _, secret := range []string{"correct", "horse", "battery", "first", "words"} {
				if strings.Contains(s.Error(), secret) {
					t.Errorf("the message shows %q: %v", secret, s)
				}
			}
		})
	}
}

func TestAt(t *testing.T) {
	s := &Syntax{Line: 3, Shown: "x", Problem: "p"}
	if got := s.At(10).Line; got != 12 {
		t.Errorf("got %d, want 12", got)
	}
}

// FuzzLocate: for any text yaml.v3 refuses, Locate names a line of the
// text, and yaml.v3 reads the lines before it without a syntax error of
// their own (or they end early, inside a quote or bracket).
func FuzzLocate(f *testing.F) {
	f.Add("a:\n  b: 1\n  c: x: y\n")
	f.Add("a:\n\tb: 1\n")
	f.Add("a: \"abc\nb: 1\n")
	f.Add("- a\n - b\n-c: [\n")
	f.Fuzz(func(t *testing.T, text string) {
		var n yaml.Node
		err := yaml.Unmarshal([]byte(text), &n)
		s, ok := Locate([]byte(text), err)
		if !ok {
			return
		}
		lines := strings.SplitAfter(text, "\n")
		if s.Line < 1 || s.Line > len(lines) {
			t.Fatalf("line %d of %d", s.Line, len(lines))
		}
		if brokenFor([]byte(strings.Join(lines[:s.Line-1], ""))) {
			t.Fatalf("the lines before line %d already break", s.Line)
		}
		if !strings.HasPrefix(lines[s.Line-1], strings.TrimSuffix(strings.TrimSuffix(s.Shown, "…"), " ")) {
			t.Fatalf("shown %q is not the start of line %q", s.Shown, lines[s.Line-1])
		}
	})
}

// TestLocateBounded: a text over maxText is not searched (each step of the
// search parses it), and keeps yaml.v3's own message.
func TestLocateBounded(t *testing.T) {
	text := []byte(strings.Repeat("a: 1\n", maxText/5+1) + "b: c: d\n")
	var n yaml.Node
	err := yaml.Unmarshal(text, &n)
	if _, ok := Locate(text, err); ok {
		t.Fatal("a text over the bound was searched")
	}
}
