package embedded

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// TestEdit applies batches whose entries share maps: several keys lost,
// every key lost, keys lost and gained, keys gained by an empty map, and
// changes inside one string's document.
func TestEdit(t *testing.T) {
	p := fieldpath.MustParse
	for _, tc := range []struct {
		text    string
		changes []Change
		want    string
	}{
		{`{"a": 1, "b": 2, "c": 3}`, []Change{{Path: p("a"), Delete: true}, {Path: p("b"), Delete: true}}, `{"c": 3}`},
		{`{"a": 1, "b": 2, "c": 3}`, []Change{{Path: p("c"), Delete: true}, {Path: p("b"), Delete: true}}, `{"a": 1}`},
		{`{"a": 1, "b": 2}`, []Change{{Path: p("a"), Delete: true}, {Path: p("b"), Delete: true}}, `{}`},
		{`{"a": 1, "b": 2}`, []Change{
			{Path: p("a"), Delete: true}, {Path: p("b"), Delete: true},
			{Path: p("c"), Text: "3", Create: true}, {Path: p("d"), Text: "[4]", Create: true},
		}, `{"c": 3, "d": [4]}`},
		{"{\n  \"a\": 1,\n  \"b\": {}\n}\n", []Change{
			{Path: p("a"), Text: `"x"`},
			{Path: p("b.x"), Text: "1", Create: true}, {Path: p("b.y"), Text: "2", Create: true},
			{Path: p("z"), Set: setTo(str("new")), Create: true},
		}, "{\n  \"a\": \"x\",\n  \"b\": {\"x\": 1, \"y\": 2},\n  \"z\": \"new\"\n}\n"},
		{`{"s": "{\"k\": 1, \"l\": 2}", "t": 0}`, []Change{
			{Path: p("s.k"), Delete: true}, {Path: p("s.l"), Set: setTo(str("v"))}, {Path: p("t"), Text: "1"},
		}, `{"s": "{\"l\": \"v\"}", "t": 1}`},
		{"a: 1 # one\nb: 2\nc:\n  d: 3\n", []Change{
			{Path: p("a"), Delete: true}, {Path: p("c.d"), Set: setTo(str("x"))},
			{Path: p("c.e"), Set: setTo(str("v")), Create: true}, {Path: p("f"), Set: setTo(str("z")), Create: true},
		}, "b: 2\nc:\n  d: x\n  e: v\nf: z\n"},
		{`{"l": [{"n": "a"}]}`, []Change{
			{Path: p("l.[n=b].v"), Set: setTo(str("x")), Create: true}, {Path: p("l.[n=c].v"), Set: setTo(str("y")), Create: true},
		}, `{"l": [{"n": "a"}, {"n": "b", "v": "x"}, {"n": "c", "v": "y"}]}`},
		// A block scalar with clip chomping ends a text without a final
		// line break: an entry added after it must not give its value one.
		{"a: >\n  x", []Change{{Path: p("b"), Set: setTo(str("v")), Create: true}}, "a: >-\n  x\nb: v"},
		{"l:\n- k: |2\n     x", []Change{{Path: p("m"), Set: setTo(str("v")), Create: true}}, "l:\n- k: |-2\n     x\nm: v"},
		// An empty value after an anchor or a tag is set in place, after
		// them, which stay.
		{"a: !t\nb: 1\n", []Change{{Path: p("a"), Set: setTo(str("y"))}}, "a: !t \"y\"\nb: 1\n"},
		{"- !t\n- b\n", []Change{{Path: p("0"), Set: setTo(str("y"))}}, "- !t \"y\"\n- b\n"},
		{"- !-\n", []Change{{Path: p("0"), Set: setTo(str("y"))}}, "- !- \"y\"\n"},
		{"a: &x # c\nb: 1\n", []Change{{Path: p("a"), Set: setTo(str("y"))}}, "a: &x \"y\" # c\nb: 1\n"},
		// A YAML block map losing its last entry and gaining one is
		// written one change after the other.
		{"a: 1\nb: 2\n", []Change{{Path: p("b"), Delete: true}, {Path: p("c"), Set: setTo(str("z")), Create: true}}, "a: 1\nc: z\n"},
	} {
		got, err := Edit(tc.text, Options{}, tc.changes...)
		if err != nil || got != tc.want {
			t.Errorf("Edit(%q, %s) = %q, %v; want %q", tc.text, describeChanges(tc.changes), got, err, tc.want)
		}
	}
}

// Changes that touch the same place are refused: one by one, the second
// would see what the first wrote.
func TestEditOverlap(t *testing.T) {
	p := fieldpath.MustParse
	for _, tc := range []struct {
		text    string
		changes []Change
	}{
		{`{"a": {"b": 1}}`, []Change{{Path: p("a"), Text: "2"}, {Path: p("a.b"), Text: "3"}}},
		{`{"a": {"b": 1}}`, []Change{{Path: p("a.b"), Text: "3"}, {Path: p("a"), Delete: true}}},
		{`{"a": 1}`, []Change{{Path: p("n"), Text: "2", Create: true}, {Path: p("n"), Text: "3", Create: true}}},
		{`{"a": 1}`, []Change{{Path: p("a"), Delete: true}, {Path: p("a"), Delete: true}}},
		{`{"l": []}`, []Change{{Path: p("l.0"), Text: "1", Create: true}, {Path: p("l.0"), Text: "2", Create: true}}},
	} {
		_, err := Edit(tc.text, Options{}, tc.changes...)
		if err == nil || !strings.Contains(err.Error(), "overlap") {
			t.Errorf("Edit(%q, %s): error %v, want one about changes that overlap", tc.text, describeChanges(tc.changes), err)
		}
	}
}
