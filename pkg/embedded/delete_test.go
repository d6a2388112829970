package embedded

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

func TestDelete(t *testing.T) {
	for _, tc := range []struct{ text, path, want string }{
		{`{"a":1,"b":2,"c":3}`, "a", `{"b":2,"c":3}`},
		{`{"a":1,"b":2,"c":3}`, "b", `{"a":1,"c":3}`},
		{"{\n  \"a\": 1,\n  \"b\": 2\n}\n", "b", "{\n  \"a\": 1\n}\n"},
		{"{\n  \"a\": {\n    \"only\": 1\n  }\n}", "a.only", "{\n  \"a\": {}\n}"},
		{`{"caf\u00e9": 1, "x<y": 2}`, "x<y", `{"caf\u00e9": 1}`},
		{`{"s": "{\"in\": 1, \"out\": 2}"}`, "s.out", `{"s": "{\"in\": 1}"}`},
		{"a: 1\n# about b\nb:\n  c: |\n    # not a comment\n    text\n  d: 2\nc: 3\n", "b", "a: 1\nc: 3\n"},
		{"a: 1\n\n# about b\nb: 2 # b\n", "b", "a: 1\n\n"},
		{"keep: 1\nm:\n  a: 1\n", "m.a", "keep: 1\nm: {}\n"},
		{"m: {a: 1, b: 2}  # flow\n", "m.b", "m: {a: 1}  # flow\n"},
		{"m: {a: 1, b: 2}\n", "m.a", "m: {b: 2}\n"},
		{"list:\n- a: 1\n  b: 2\n", "list.0.a", "list:\n- b: 2\n"},
		{"list:\n- a: 1\n  b: 2\n", "list.*.b", "list:\n- a: 1\n"},
		{"a: 1\r\nb: 2\r\nc: 3\r\n", "b", "a: 1\r\nc: 3\r\n"},
		{"a: 1\nb: 2", "b", "a: 1\n"},
		// Comments between the entries of a flow map stay, also when the
		// map loses its last entry (fuzz finding: they were lost).
		{"m: {a: 1 # why\n}\n", "m.a", "m: { # why\n}\n"},
		{"m: {\n  a: 1, # why a\n  b: 2\n}\n", "m.a", "m: {\n   # why a\n  b: 2\n}\n"},
		{"m: {\n  b: 2, # why b\n  a: 1\n}\n", "m.a", "m: {\n  b: 2 # why b\n}\n"},
		{"m: {b: 2, # why b\n  a: 1}\n", "m.a", "m: {b: 2 # why b\n}\n"},
		{"m: {b: 2, # why b\r\n  a: 1\r\n}\r\n", "m.a", "m: {b: 2 # why b\r\n}\r\n"},
		{"m: {a: [1, # inside\n  2], b: 2}\n", "m.a", "m: {b: 2}\n"},
		// An empty value's ":" goes, the space before a comment stays.
		{"m: {b: 1, a: # c\n}\n", "m.a", "m: {b: 1 # c\n}\n"},
		// The tag of an empty value goes with it (fuzz finding).
		{"m: {b: 1, \"a\":!0 }\n", "m.a", "m: {b: 1}\n"},
		{"m: {b: 1, a: &x !t\n  , c: 2}\n", "m.a", "m: {b: 1\n  , c: 2}\n"},
		// The tag of the next key stays with it (fuzz finding).
		{"m: {a, !t 0: 1}\n", "m.a", "m: {!t 0: 1}\n"},
		{"m: {a: 1, &x !t b: 2}\n", "m.a", "m: {&x !t b: 2}\n"},
	} {
		got, err := Delete(tc.text, fieldpath.MustParse(tc.path), Options{})
		if err != nil {
			t.Errorf("Delete(%q, %s): %v", tc.text, tc.path, err)
			continue
		}
		if got != tc.want {
			t.Errorf("Delete(%q, %s) = %q, want %q", tc.text, tc.path, got, tc.want)
		}
	}
}

// TestDeleteElements deletes list elements: each takes its own lines and
// comments (the head above its dash, the foot of settings commented out
// below it) and leaves every other element's where they are (issue 29:
// an element's head comment indented like its keys went with the element
// above it).
func TestDeleteElements(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		paths      []string
	}{
		// Head comments indented like the elements' keys.
		{"jobs:\n- name: a\n  x: 1\n\n  # about b\n- name: b\n\n  # about c\n- name: c\n",
			"jobs:\n- name: a\n  x: 1\n\n  # about c\n- name: c\n", []string{"jobs.1"}},
		{"jobs:\n- name: a\n  x: 1\n\n  # about b\n- name: b\n\n  # about c\n- name: c\n",
			"jobs:\n  # about b\n- name: b\n\n  # about c\n- name: c\n", []string{"jobs.0"}},
		// Head comments at the dash; the last element takes the blank
		// lines before it.
		{"jobs:\n  # about a\n  - a\n\n  # about b\n  - b\n\nnext: 1\n", "jobs:\n  # about a\n  - a\n\nnext: 1\n", []string{"jobs.1"}},
		{"jobs:\n  # about a\n  - a\n\n  # about b\n  - b\n  # about c\n  - c\n", "jobs:\n  # about b\n  - b\n  # about c\n  - c\n", []string{"jobs.0"}},
		// A setting commented out below an element is its foot.
		{"l:\n  - tls:\n      ca: x\n      # insecure: true\n  - b\n", "l:\n  - b\n", []string{"l.0"}},
		{"l:\n  - b\n  - tls:\n      ca: x\n      # insecure: true\nn: 1\n", "l:\n  - b\nn: 1\n", []string{"l.1"}},
		// A paragraph no element owns stays.
		{"l:\n  - a\n\n  # about the list\n\n  # about b\n  - b\n  - c\n", "l:\n  - a\n\n  # about the list\n\n  - c\n", []string{"l.1"}},
		// Several at once, the last ones too.
		{"l:\n  - a\n\n  # b\n  - b\n\n  # c\n  - c\n\n  # d\n  - d\n", "l:\n  - a\n\n  # c\n  - c\n", []string{"l.3", "l.1"}},
		{"l:\n  - a\n\n  # b\n  - b\n\n  # c\n  - c\nm: 1\n", "l:\n  - a\nm: 1\n", []string{"l.1", "l.2"}},
		{"l:\n  - a\n  - b\n", "l: []\n", []string{"l.0", "l.1"}},
		{"l:\n- a\n", "l: []\n", []string{"l.0"}},
		// Flow lists and JSON.
		{"l: [a, b, c]  # c\n", "l: [a, c]  # c\n", []string{"l.1"}},
		{"l: [a, # why a\n  b]\n", "l: [ # why a\n  b]\n", []string{"l.0"}},
		{"l: [a]\n", "l: []\n", []string{"l.0"}},
		{`{"l": [1, 2, 3]}`, `{"l": [1, 3]}`, []string{"l.1"}},
		{"{\n  \"l\": [\n    1,\n    2\n  ]\n}", "{\n  \"l\": [\n    1\n  ]\n}", []string{"l.1"}},
		{`[1, 2]`, `[2]`, []string{"0"}},
		// Elements laid out otherwise.
		{"- - a\n  - b\n- c\n", "- - b\n- c\n", []string{"0.0"}},
		{"- - a\n  - b\n- c\n", "- c\n", []string{"0"}},
		{"l:\n- \n# b\n- b\n", "l:\n# b\n- b\n", []string{"l.0"}},
		{"l:\n  -\n    x: 1\n  - b\n", "l:\n  - b\n", []string{"l.0"}},
		{"l:\n  - &a x\n  - *a\n  - c\n", "l:\n  - &a x\n  - *a\n", []string{"l.2"}},
		{"l:\r\n  - a\r\n\r\n  - b\r\n", "l:\r\n  - a\r\n", []string{"l.1"}},
		{"- a\n- b", "- a\n", []string{"1"}},
	} {
		var changes []Change
		for _, p := range tc.paths {
			changes = append(changes, Change{Path: fieldpath.MustParse(p), Delete: true})
		}
		got, err := Edit(tc.text, Options{}, changes...)
		if err != nil || got != tc.want {
			t.Errorf("delete %v from %q = %q, %v; want %q", tc.paths, tc.text, got, err, tc.want)
		}
	}
}

func TestDeleteErrors(t *testing.T) {
	for _, tc := range []struct{ text, path, msg string }{
		{`{"a": 1}`, "b", `no key "b"`},
		{`{"a": [1]}`, "a.1", "no element 1 in the JSON array"},
		{`{"a": 1}`, "[x=y]", "does not name one"},
		{"l: &x\n  - 1\nc: *x\n", "l.0", "cannot empty a list that has an anchor"},
		{"- - a\n  # about b\n  - b\n", "0.0", "shares its line"},
		{"a: &x\n  b: 1\nc: *x\n", "a.b", "anchor"},
	} {
		_, err := Delete(tc.text, fieldpath.MustParse(tc.path), Options{})
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Delete(%q, %s): error %v, want one containing %q", tc.text, tc.path, err, tc.msg)
		}
	}
}

func TestSetText(t *testing.T) {
	for _, tc := range []struct {
		text, path, value, want string
		create                  bool
	}{
		{`{"n":1}`, "n", `"1"`, `{"n":"1"}`, false},
		{`{"a":1,"b":2}`, "l", `[1, null]`, `{"a":1,"b":2,"l":[1, null]}`, true},
		{"{\n  \"a\": 1\n}", "a", `{"x": [1,  2]}`, "{\n  \"a\": {\"x\": [1,  2]}\n}", false},
		{`[1]`, "1", `{"k":"v"}`, `[1, {"k":"v"}]`, true},
	} {
		got, err := SetText(tc.text, fieldpath.MustParse(tc.path), Options{Create: tc.create}, tc.value)
		if err != nil {
			t.Errorf("SetText(%q, %s, %s): %v", tc.text, tc.path, tc.value, err)
			continue
		}
		if got != tc.want {
			t.Errorf("SetText(%q, %s, %s) = %q, want %q", tc.text, tc.path, tc.value, got, tc.want)
		}
	}
	for _, tc := range []struct{ text, path, value, msg string }{
		{"a: 1\n", "a", "2", "document is YAML"},
		{`{"a": 1}`, "b.c", "2", "only the last key"},
		{`{"a": 1}`, "a", "{", "not valid JSON"},
	} {
		_, err := SetText(tc.text, fieldpath.MustParse(tc.path), Options{Create: true}, tc.value)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("SetText(%q, %s, %s): error %v, want one containing %q", tc.text, tc.path, tc.value, err, tc.msg)
		}
	}
}

func TestGetText(t *testing.T) {
	got, err := GetText("{\"a\": [1,  2], \"b\": \"x\\u0041\"}", fieldpath.MustParse("*"), Options{})
	if err != nil || len(got) != 2 || got[0] != "[1,  2]" || got[1] != `"x\u0041"` {
		t.Errorf("GetText = %q, %v", got, err)
	}
	got, err = GetText("a: 'q' # c\nb: |\n  s: {x: 1}\n", fieldpath.MustParse("b.s"), Options{})
	if err != nil || len(got) != 1 || got[0] != "{x: 1}" {
		t.Errorf("GetText into a string = %q, %v", got, err)
	}
}

func TestCheck(t *testing.T) {
	deep := strings.Repeat("[", 1100) + strings.Repeat("]", 1100)
	for _, tc := range []struct {
		text string
		f    Format
		msg  string
	}{
		{`{"a": 1}`, JSON, ""},
		{deep, JSON, "nested more than 1000 levels deep"},
		{"{\"\xfb\": 1}", JSON, "invalid UTF-8"},
		{"{a: 1}", JSON, "line 1, column 2"},
		{"a: [1\n", YAML, "does not parse as YAML"},
		{"a: 1\n", YAML, ""},
	} {
		err := Check(tc.text, tc.f)
		if (tc.msg == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Check(%.20q, %s) = %v, want an error containing %q", tc.text, tc.f, err, tc.msg)
		}
	}
}

// A root map whose only key is explicit ("? key") empties to {}: the "?"
// belongs to the map (it once stayed, leaving "? {}").
func TestDeleteOnlyExplicitKey(t *testing.T) {
	for key, text := range map[string]string{"a": "? a\n: 1\n", "line\nbreak": "? \"line\\nbreak\"\n: 43392\n"} {
		out, err := Delete(text, fieldpath.Path{{Kind: fieldpath.Field, Key: key}}, Options{})
		if err != nil || out != "{}\n" {
			t.Errorf("Delete(%q) = %q, %v; want {}", text, out, err)
		}
	}
}

// TestFlowMapEntryAddedBeforeComment checks that entries that replace every
// entry of a flow map whose last key has no value go after that key, before
// the comment that follows, as they do after deleting the entries one by one
// (fuzz finding: a batch put them past the comment); a plain value added
// right before a comment is kept apart from it. Added after an empty value
// that stays, they follow it, so that setting it in the same batch works
// (fuzz finding of the first try).
func TestFlowMapEntryAddedBeforeComment(t *testing.T) {
	zero := setTo(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "0"})
	for _, tc := range []struct {
		text    string
		changes []Change
		want    string
	}{
		{"{\"a\"#00\n}", []Change{{Path: fieldpath.MustParse("a"), Delete: true}, {Path: fieldpath.MustParse("0"), Create: true, Set: zero}}, "{\"0\": 0 #00\n}"},
		{"{\"a\"#00\n}", []Change{{Path: fieldpath.MustParse("0"), Create: true, Set: zero}}, "{\"a\"#00\n, \"0\": 0}"},
		{"{0: \n}", []Change{{Path: fieldpath.MustParse("0"), Set: zero}, {Path: fieldpath.MustParse("1"), Create: true, Set: zero}}, "{0: \n0, \"1\": 0}"},
		{"{#00\n}", []Change{{Path: fieldpath.MustParse("0"), Create: true, Set: zero}}, "{\"0\": 0 #00\n}"},
		{"{b: 1, a: # c\n}", []Change{{Path: fieldpath.MustParse("a"), Delete: true}, {Path: fieldpath.MustParse("0"), Create: true, Set: zero}}, "{b: 1 # c\n, \"0\": 0}"},
	} {
		got, err := Edit(tc.text, Options{}, tc.changes...)
		if err != nil || got != tc.want {
			t.Errorf("Edit(%q, %s) = %q, %v; want %q", tc.text, describeChanges(tc.changes), got, err, tc.want)
		}
	}
}

// A value that is a bare tag ("key: !", which yaml.v3 reads as null) is
// the entry's bytes too: deleting the last entry left "{}!" behind, which
// no reader can parse (a finding of the value merge's fuzzing,
// valuemerge FuzzMerge/f73fcd054bb68175).
func TestDeleteEntryWhoseValueIsABareTag(t *testing.T) {
	for text, want := range map[string]string{"0: !": "{}", "a: 1\n0: !\n": "a: 1\n"} {
		got, err := Delete(text, fieldpath.MustParse("0"), Options{})
		if err != nil || got != want {
			t.Errorf("Delete(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
}
