package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// New keys follow the document's key quoting when every key is quoted the
// same way, as jsonnet writes YAML (issue 20); otherwise they are plain.
func TestNewKeysFollowKeyQuoting(t *testing.T) {
	set := func(*yaml.Node) (*yaml.Node, error) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: span.IntTag, Value: "1"}, nil
	}
	for _, c := range []struct{ text, path, want string }{
		{"\"a\":\n  \"b\": 0\n", "a.c", "\"a\":\n  \"b\": 0\n  \"c\": 1\n"},
		{"\"a\":\n  \"b\": 0\n", "a.c.d", "\"a\":\n  \"b\": 0\n  \"c\":\n    \"d\": 1\n"},
		{"'a':\n  'b': 0\n", "a.c", "'a':\n  'b': 0\n  'c': 1\n"},
		{"\"a\": {\"b\": 0}\n", "a.c", "\"a\": {\"b\": 0, \"c\": 1}\n"},
		{"\"a\":\n- \"n\": x\n", "a.[n=y].v", "\"a\":\n- \"n\": x\n- \"n\": \"y\"\n  \"v\": 1\n"},
		// mixed, or plain: new keys are plain
		{"\"a\":\n  b: 0\n", "a.c", "\"a\":\n  b: 0\n  c: 1\n"},
		{"'a':\n  \"b\": 0\n", "a.c", "'a':\n  \"b\": 0\n  c: 1\n"},
		{"a:\n  b: 0\n", "a.c", "a:\n  b: 0\n  c: 1\n"},
	} {
		got, err := Set(c.text, fieldpath.MustParse(c.path), Options{Create: true}, set)
		if err != nil || got != c.want {
			t.Errorf("%q + %s:\n got  %q, %v\n want %q", c.text, c.path, got, err, c.want)
		}
	}
}

// New strings follow the document's quoting when every string is quoted
// the same way, as jsonnet writes YAML; a string given quoted keeps its
// quotes under GivenStyle; otherwise they are plain where they can be
// (issue 29: "group_wait": 1m in an Alertmanager config quoting every
// string).
func TestNewStringsFollowQuoting(t *testing.T) {
	for _, c := range []struct {
		text, path, value string
		given             bool
		want              string
	}{
		{"\"route\":\n  \"receiver\": \"team\"\n  \"repeat\": 4\n", "route.group_wait", "1m", true, "\"route\":\n  \"receiver\": \"team\"\n  \"repeat\": 4\n  \"group_wait\": \"1m\"\n"},
		{"\"route\":\n  \"receiver\": \"team\"\n", "route.group_wait", "1m", false, "\"route\":\n  \"receiver\": \"team\"\n  \"group_wait\": \"1m\"\n"},
		{"\"l\":\n- \"a\"\n", "l.1", "b", true, "\"l\":\n- \"a\"\n- \"b\"\n"},
		{"\"l\": [\"a\"]\n", "l.1", "b", true, "\"l\": [\"a\", \"b\"]\n"},
		{"a: 'x'\nb: |\n  text\n", "c", "y", true, "a: 'x'\nb: |\n  text\nc: 'y'\n"},
		{"a: 'x'\n", "c", "it's", true, "a: 'x'\nc: 'it''s'\n"},
		{"a: \"x\"\n", "c", "'y'", true, "a: \"x\"\nc: 'y'\n"},
		// mixed, or plain: new strings are plain where they can be
		{"a: \"x\"\nb: y\n", "c", "z", true, "a: \"x\"\nb: y\nc: z\n"},
		{"a: \"x\"\nb: 'y'\n", "c", "z", true, "a: \"x\"\nb: 'y'\nc: z\n"},
		{"a: 1\n", "c", "z", true, "a: 1\nc: z\n"},
	} {
		v := given(t, c.value)
		set := func(*yaml.Node) (*yaml.Node, error) { return v, nil }
		got, err := Set(c.text, fieldpath.MustParse(c.path), Options{Create: true, GivenStyle: c.given}, set)
		if err != nil || got != c.want {
			t.Errorf("%q + %s = %s:\n got  %q, %v\n want %q", c.text, c.path, c.value, got, err, c.want)
		}
	}
}

// A string of several lines written where the document's style cannot
// hold it (a new key's value, or over a plain or 'single' value) is a
// literal block, as YAML encoders write one, not double-quoted with each
// line break spelt \n; a double-quoted value stays double-quoted, and so
// does a value with more after it on its line, or at the end of a text
// without a final line break.
func TestLinesWrittenAsLiteralBlock(t *testing.T) {
	for _, c := range []struct{ text, path, want string }{
		{"data:\n  a: x\n", "data.b", "data:\n  a: x\n  b: |\n    one\n    two\n"},
		{"data:\n  b: x\n", "data.b", "data:\n  b: |\n    one\n    two\n"},
		{"data:\n  b: 'x'\n", "data.b", "data:\n  b: |\n    one\n    two\n"},
		{"data:\n  b: \"x\"\n", "data.b", "data:\n  b: \"one\\ntwo\\n\"\n"},
		{"data: {b: x}\n", "data.b", "data: {b: \"one\\ntwo\\n\"}\n"},
		// a block scalar would take in what follows it on its line
		{"data:\n  b: x # c\n", "data.b", "data:\n  b: \"one\\ntwo\\n\" # c\n"},
		{"data:\n  a: x", "data.b", "data:\n  a: x\n  b: \"one\\ntwo\\n\""},
	} {
		set := func(*yaml.Node) (*yaml.Node, error) {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: "one\ntwo\n"}, nil
		}
		got, err := Set(c.text, fieldpath.MustParse(c.path), Options{Create: true}, set)
		if err != nil || got != c.want {
			t.Errorf("%q + %s:\n got  %q, %v\n want %q", c.text, c.path, got, err, c.want)
		}
	}
}
