package span

import (
	"fmt"
	"strings"
	"testing"
)

// spans lists every node of the tree with the text its span covers, keys
// before their values, indented by depth.
func spans(tr *Tree) string {
	var b strings.Builder
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		tr.Open(n)
		fmt.Fprintf(&b, "%s%s %q\n", strings.Repeat("  ", depth), n.Kind, tr.Text[n.Start:n.End])
		for i, c := range n.Children {
			if n.Kind == Map {
				walk(n.Keys[i], depth+1)
			}
			walk(c, depth+1)
		}
	}
	walk(tr.Root, 0)
	return b.String()
}

func TestSpans(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{
			name: "JSON",
			text: `{"a": [1, -2.5e3, true, null], "b": {"c": "x\ny"}}`,
			want: `map "{\"a\": [1, -2.5e3, true, null], \"b\": {\"c\": \"x\\ny\"}}"
  scalar "\"a\""
  list "[1, -2.5e3, true, null]"
    scalar "1"
    scalar "-2.5e3"
    scalar "true"
    scalar "null"
  scalar "\"b\""
  map "{\"c\": \"x\\ny\"}"
    scalar "\"c\""
    scalar "\"x\\ny\""
`,
		},
		{
			name: "YAML scalars of every style",
			text: "a: plain\n  folded\nb: 'it''s' # c\nc: \"q\\\"\"\nd: |2-  # h\n    two\n   one\n\ne: >\n  f\n  g\nz:\n",
			want: `map "a: plain\n  folded\nb: 'it''s' # c\nc: \"q\\\"\"\nd: |2-  # h\n    two\n   one\n\ne: >\n  f\n  g\nz:"
  scalar "a"
  scalar "plain\n  folded"
  scalar "b"
  scalar "'it''s'"
  scalar "c"
  scalar "\"q\\\"\""
  scalar "d"
  scalar "|2-  # h\n    two\n   one"
  scalar "e"
  scalar ">\n  f\n  g"
  scalar "z"
  scalar ""
`,
		},
		{
			name: "YAML flow collections, anchors, tags and aliases",
			text: "k: &a !t {x: [1, 2,], y: *a , }\nl:\n- 1\n",
			want: `map "k: &a !t {x: [1, 2,], y: *a , }\nl:\n- 1"
  scalar "k"
  map "{x: [1, 2,], y: *a , }"
    scalar "x"
    list "[1, 2,]"
      scalar "1"
      scalar "2"
    scalar "y"
    alias "*a"
  scalar "l"
  list "- 1"
    scalar "1"
`,
		},
	}
	for _, tc := range tests {
		parse := ParseYAML
		if strings.HasPrefix(tc.text, "{") {
			parse = ParseJSON
		}
		tr, err := parse(tc.text)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := spans(tr); got != tc.want {
			t.Errorf("%s:\n got:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestYAMLLayoutFacts(t *testing.T) {
	tr, err := ParseYAML("a:\n    b:\n    - 1\n    c: |2\n       x\n")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Unit != 4 || tr.SeqIndented != -1 {
		t.Errorf("Unit %d, SeqIndented %d; want 4, -1", tr.Unit, tr.SeqIndented)
	}
	c := tr.Root.Children[0].Children[1]
	if c.BlockIndent != 6 || c.ParentIndent != 4 || c.HeaderRest != "" {
		t.Errorf("block scalar: BlockIndent %d, ParentIndent %d, HeaderRest %q; want 6, 4, \"\"", c.BlockIndent, c.ParentIndent, c.HeaderRest)
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		text      string
		json      bool
		msg       string
		line, col int
	}{
		{"{\"a\": 1,\n \"b\": ]}", true, "unexpected ']', expected a value", 2, 7},
		{"[\"é\", x]", true, "unexpected 'x', expected a value", 1, 7},
		{"[1] 2", true, "unexpected '2' after the end of the JSON value", 1, 5},
		{"a: b\n c: d\n", false, "mapping values are not allowed in this context", 2, 0},
		{"# only a comment\n", false, "empty YAML document", 1, 1},
	}
	for _, tc := range tests {
		var err error
		if tc.json {
			_, err = ParseJSON(tc.text)
		} else {
			_, err = ParseYAML(tc.text)
		}
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%q: error %v (%T), want a *SyntaxError", tc.text, err, err)
			continue
		}
		line, col := se.Position()
		if se.Msg != tc.msg || line != tc.line || col != tc.col {
			t.Errorf("%q: %q at %d:%d, want %q at %d:%d", tc.text, se.Msg, line, col, tc.msg, tc.line, tc.col)
		}
	}
}

func TestKey(t *testing.T) {
	for _, size := range []int{3, keyIndexMin + 4} {
		var b strings.Builder
		b.WriteString("{")
		for i := range size {
			fmt.Fprintf(&b, "%q: %d, ", fmt.Sprintf("k%d", i), i)
		}
		b.WriteString(`"k1": 0}`)
		tr, err := ParseJSON(b.String())
		if err != nil {
			t.Fatal(err)
		}
		if j, twice := tr.Key(tr.Root, "k2"); j != 2 || twice {
			t.Errorf("%d keys: Key(k2) = %d, %v; want 2, false", size, j, twice)
		}
		if _, twice := tr.Key(tr.Root, "k1"); !twice {
			t.Errorf("%d keys: Key(k1) does not see it twice", size)
		}
		if j, _ := tr.Key(tr.Root, "nope"); j != -1 {
			t.Errorf("%d keys: Key(nope) = %d, want -1", size, j)
		}
	}
}

func ExampleParseJSON() {
	text := `{"port": 8080, "name": "api"}`
	tr, err := ParseJSON(text)
	if err != nil {
		panic(err)
	}
	j, _ := tr.Key(tr.Root, "port")
	v := tr.Root.Children[j]
	fmt.Printf("%s %s at [%d, %d): %s\n", v.Kind, v.Tag, v.Start, v.End, text[v.Start:v.End])
	// Output: scalar !!int at [9, 13): 8080
}

func TestLineStarts(t *testing.T) {
	text := "a\rb\r\nc\nd\u0085e\u2028f\u2029g\u2027h\xc2"
	for _, tc := range []struct {
		yaml bool
		want []int
	}{
		{false, []int{0, 2, 5, 7}},
		{true, []int{0, 2, 5, 7, 10, 14, 18}},
	} {
		if got := LineStarts(text, tc.yaml); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("LineStarts(%q, %v) = %v, want %v", text, tc.yaml, got, tc.want)
		}
	}
}
