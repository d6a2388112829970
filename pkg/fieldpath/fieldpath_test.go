package fieldpath

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func field(k string) Segment          { return Segment{Kind: Field, Key: k} }
func index(n int, raw string) Segment { return Segment{Kind: Index, Index: n, Key: raw} }
func match(k, v string) Segment       { return Segment{Kind: Match, Key: k, Value: v} }

var wildcard = Segment{Kind: Wildcard}

// plain drops what Parse compiles, for comparing paths with those written
// as literals.
func plain(p Path) Path {
	out := make(Path, len(p))
	for i, s := range p {
		s.re = nil
		out[i] = s
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Path
	}{
		{"metadata.name", Path{field("metadata"), field("name")}},
		{`data.config\.json.config.hostname`, Path{field("data"), field("config.json"), field("config"), field("hostname")}},
		{"metadata.annotations.[example.com/config].ports", Path{field("metadata"), field("annotations"), field("example.com/config"), field("ports")}},
		{"spec.containers.[name=app].image", Path{field("spec"), field("containers"), match("name", "app"), field("image")}},
		{"spec.args.[=--verbose]", Path{field("spec"), field("args"), match("", "--verbose")}},
		{"spec.containers.[image=reg.example.com/app:v1.2].name", Path{field("spec"), field("containers"), match("image", "reg.example.com/app:v1.2"), field("name")}},
		{"spec.containers.0.ports.12", Path{field("spec"), field("containers"), index(0, "0"), field("ports"), index(12, "12")}},
		{"spec.containers.*.image", Path{field("spec"), field("containers"), wildcard, field("image")}},
		{"data.[8080]", Path{field("data"), field("8080")}},
		{"data.[*]", Path{field("data"), field("*")}},
		{"data.[plain]", Path{field("data"), field("plain")}},
		{"a.[k=v=w]", Path{field("a"), match("k", "v=w")}},
		{`a.[k=x\.y]`, Path{field("a"), match("k", "x.y")}},
		{"a.[k=x]y].b", Path{field("a"), match("k", "x]y"), field("b")}},
		{`a\b.c`, Path{field(`a\b`), field("c")}},
		{"a-b/c:d", Path{field("a-b/c:d")}},
		{"007", Path{index(7, "007")}},
		{"-1", Path{field("-1")}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(plain(got), tt.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "empty field path"},
		{"a..b", "column 3: empty segment"},
		{".a", "column 1: empty segment"},
		{"a.", "column 2: trailing dot"},
		{"a.[b", "column 3: '[' without a matching ']'"},
		{"a.[b]c", "column 3: '[' without a matching ']'"},
		{"a.[]", "column 3: empty brackets"},
		{"a.99999999999999999999999", "too large"},
		// issue 28, item 9: a pattern that takes minutes to match is refused here
		{"spec.items.[name=[a-y]{900}|[b-z]{900}].x", "column 12: the regular expression compiles to 1803 instructions, more than the 1000"},
		// a path nested deeper than any resource: creating it wrote gigabytes
		{strings.Repeat("a.", 200) + "a", "column 401: more than 200 segments, the most a path may have"},
		// values meant as patterns that Go does not read (issue 30)
		{"c.[name=shop-(api|worker].image", "column 3: [name=shop-(api|worker]: its value is not a regular expression: missing closing )"},
		{"c.[name=(?!istio).*].image", "no lookaround; a matcher cannot leave values out: list those to select, [name=app|worker]"},
		{"c.[name=istio-[a-z]", "missing closing ]"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q): no error, want %q", tt.in, tt.want)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		p    Path
		want string
	}{
		{Path{field("data"), field("config.json"), field("a")}, `data.config\.json.a`},
		{Path{field(`a\b.c`)}, `[a\b.c]`},
		{Path{field("data"), field("a.b=c")}, `data.a\.b=c`},
		{Path{field("8080"), field("*"), wildcard, index(3, "")}, "[8080].[*].*.3"},
		{Path{match("name", "a.b")}, `[name=a.b]`},
		{Path{match("name", `a\.b`), field("c")}, `[name=a\\.b].c`},
		{Path{match("name", "x].y")}, `[name=x]\.y]`},
		// A key beginning with "[" needs brackets; its "]." must not close them.
		{Path{field("[]."), field("b")}, `[[]\.].b`},
		{Path{field(`[a\.b].c`)}, `[[a\\.b]\.c]`},
		{Path{field(`a\`), field("b")}, `[a\].b`},
		{Path{field(`a=\`)}, `a=\`},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
		back, err := Parse(tt.want)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.want, err)
			continue
		}
		for i := range back {
			if back[i].Kind == Index {
				back[i].Key = ""
			}
		}
		for i := range tt.p {
			if tt.p[i].Kind == Index {
				tt.p[i].Key = ""
			}
		}
		if !reflect.DeepEqual(plain(back), tt.p) {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.want, back, tt.p)
		}
	}
}

// TestStringUnrenderable: keys taken from documents that no path can name
// are marked, not written as a path that means something else.
func TestStringUnrenderable(t *testing.T) {
	tests := []struct {
		p    Path
		want string
	}{
		{Path{field("data"), field("[a=b")}, `data.<"[a=b">`},
		{Path{field(`a=\`), field("b")}, `<"a=\\">.b`},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestHasWildcard(t *testing.T) {
	if MustParse("a.[*].b").HasWildcard() {
		t.Error("[*] is a literal key, not a wildcard")
	}
	if !MustParse("a.*.b").HasWildcard() {
		t.Error("a.*.b has a wildcard")
	}
}

// FuzzParse checks that parsing never panics and that every parsed path
// renders to text that parses back to the same path.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"metadata.name", `data.config\.json.a`, "a.[b.c].d", "a.[k=v].b", "a.[=x]",
		"a.0.*", "[8080]", "a.[k=x]y].b", `a\\.b`, "a..b", "[", "]", `[a\.b=c\.d]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse(%q) returned %T, want *Error", s, err)
			}
			return
		}
		if len(p) == 0 {
			t.Fatalf("Parse(%q) returned an empty path without error", s)
		}
		text := p.String()
		back, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v renders as %q, which does not parse: %v", s, p, text, err)
		}
		if !reflect.DeepEqual(plain(back), plain(p)) {
			t.Fatalf("Parse(%q) = %#v renders as %q, which parses as %#v", s, p, text, back)
		}
	})
}

func TestSelect(t *testing.T) {
	list := []any{om("name", "app"), om("name", "app-sidecar"), "x", om("name", "app")}
	m := om("a", "1")
	cases := []struct {
		n    any
		path string
		want Selection
	}{
		{list, "[name=app]", Selection{Positions: []int{0, 3}, Unanchored: []int{1}}},
		{list, "[name=ap]", Selection{Missing: true, Unanchored: []int{0, 1, 3}}},
		{list, "[name=app.*]", Selection{Positions: []int{0, 1, 3}}},
		{list, "[name=.*car]", Selection{Positions: []int{1}}},
		{list, "[=x|y]", Selection{Positions: []int{2}}},
		{list, "[=x]", Selection{Positions: []int{2}}},
		{list, "1", Selection{Positions: []int{1}}},
		{list, "4", Selection{Missing: true}},
		{list, "5", Selection{OutOfRange: true}},
		{list, "*", Selection{Positions: []int{0, 1, 2, 3}}},
		{list, "name", Selection{Mismatch: true}},
		{m, "a", Selection{Positions: []int{0}}},
		{m, "b", Selection{Missing: true}},
		{m, "[name=a]", Selection{Mismatch: true}},
		{"scalar", "a", Selection{Mismatch: true}},
	}
	for _, c := range cases {
		got, err := Select[any](goTree{}, c.n, MustParse(c.path)[0])
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s in %v: got %+v %v, want %+v", c.path, c.n, got, err, c.want)
		}
	}
}

// TestMatchesValue: a matcher's value is a regular expression matched
// against the whole value, and its own text always matches.
func TestMatchesValue(t *testing.T) {
	cases := []struct {
		value, v         string
		ours, kustomizes bool
	}{
		{"app", "app", true, true},
		{"app", "app-sidecar", false, true},
		{"pp", "app1", false, true},
		{"app.*", "app1", true, true},
		{"app.*", "side", false, false},
		{"a+b", "a+b", true, false}, // its own text, though the expression does not match it
		{"a+b", "aab", true, true},
		{"*.example.com", "*.example.com", true, false}, // not an expression: text only
		{"*.example.com", "a.example.com", false, false},
		{"(?i)APP", "app", true, true},
		{"", "", true, true},
		{"", "x", false, true},
	}
	for _, c := range cases {
		seg := MustParse("[k=" + c.value + "]")[0]
		if got := seg.MatchesValue(c.v); got != c.ours {
			t.Errorf("[k=%s] on %q: %v, want %v", c.value, c.v, got, c.ours)
		}
		if got := seg.KustomizeMatchesValue(c.v); got != c.kustomizes {
			t.Errorf("[k=%s] on %q as kustomize reads it: %v, want %v", c.value, c.v, got, c.kustomizes)
		}
		// A segment written in code compiles its value when used.
		lit := Segment{Kind: Match, Key: "k", Value: c.value}
		if lit.MatchesValue(c.v) != c.ours {
			t.Errorf("literal [k=%s] on %q differs from the parsed one", c.value, c.v)
		}
	}
}

// TestGroupThatDoesNotCompile: a value written as a pattern that Go does
// not read (a group never closed) is refused when the path is read; a
// segment made in code compares it as text, never as ^(?:a)|(b)$.
func TestGroupThatDoesNotCompile(t *testing.T) {
	if _, err := Parse("[k=a)|(b]"); err == nil || !strings.Contains(err.Error(), "column 1: [k=a)|(b]: its value is not a regular expression: unexpected )") {
		t.Errorf("Parse: %v", err)
	}
	seg := NewMatch("k", "a)|(b")
	if seg.MatchesValue("ax") || !seg.MatchesValue("a)|(b") || seg.KustomizeMatchesValue("a)|(b") {
		t.Errorf("%s: want its own text to match, and nothing else", seg)
	}
}

func TestPatternError(t *testing.T) {
	if err := MustParse("[k=*.example.com]")[0].PatternError(); err == nil {
		t.Error("*.example.com: want an error (it is compared as text)")
	}
	if err := MustParse("[k=app.*]")[0].PatternError(); err != nil {
		t.Errorf("app.*: %v", err)
	}
	for value, want := range map[string]bool{"app": false, "app.*": true, "a+b": true, "*x": false, `a\\.b`: false, "a.b": true} {
		if got := MustParse("[k=" + value + "]")[0].IsPattern(); got != want {
			t.Errorf("IsPattern([k=%s]) = %v, want %v", value, got, want)
		}
	}
}

// TestLiteralDot: a regular expression's \. is written \\. in a path,
// where \. is a dot.
func TestLiteralDot(t *testing.T) {
	seg := MustParse(`[host=api\\.example\\.com]`)[0]
	if !seg.MatchesValue("api.example.com") || seg.MatchesValue("apixexample.com") {
		t.Errorf("%s: want a match for api.example.com only", seg)
	}
	if dot := MustParse(`[host=api.example.com]`)[0]; !dot.MatchesValue("apixexample.com") {
		t.Errorf("%s: . matches any character", dot)
	}
}
