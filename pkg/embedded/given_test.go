package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// given parses YAML text into the node a caller would hand over, with the
// styles the text was written in.
func given(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// TestEditGiven checks that GivenType lets the value given decide a scalar's
// type and that GivenStyle keeps its quoting and flow style. Each case is
// written with and without the options, which must differ.
func TestEditGiven(t *testing.T) {
	p := fieldpath.MustParse
	for _, tc := range []struct {
		text, path, value string
		opts              Options
		want, without     string
	}{
		// RFC 7386: the overlay's string replaces the number.
		{"port: 80\n", "port", `"8080"`, Options{GivenType: true}, "port: \"8080\"\n", "port: 8080\n"},
		{"on: true\n", "on", `"false"`, Options{GivenType: true}, "on: \"false\"\n", "on: false\n"},
		{"n: \"1\"\n", "n", `2`, Options{GivenType: true}, "n: 2\n", "n: \"2\"\n"},
		// The quoting given replaces the old one; the comment stays.
		{"env: \"dev\"   # c\n", "env", `prod`, Options{GivenStyle: true}, "env: prod   # c\n", "env: \"prod\"   # c\n"},
		{"a: b\n", "a", `'x'`, Options{GivenStyle: true}, "a: 'x'\n", "a: x\n"},
		{"a: 'b'\n", "a", `x`, Options{GivenStyle: true}, "a: x\n", "a: 'x'\n"},
		// Flow lists and maps stay flow in a block document.
		{"a: 1\nm:\n  k: v\n", "m", `{b: 1}`, Options{GivenStyle: true}, "a: 1\nm: {b: 1}\n", "a: 1\nm:\n  b: 1\n"},
		{"a: 1\n", "l", `[x, 'z']`, Options{GivenStyle: true, Create: true}, "a: 1\nl: [x, 'z']\n", "a: 1\nl:\n  - x\n  - z\n"},
		{"l:\n  - 1\n", "l.0", `{b: [1]}`, Options{GivenStyle: true}, "l:\n  - {b: [1]}\n", "l:\n  - b:\n      - 1\n"},
		{"a: 1\n", "b.c", `"s"`, Options{GivenStyle: true, Create: true}, "a: 1\nb:\n  c: \"s\"\n", "a: 1\nb:\n  c: s\n"},
	} {
		v := given(t, tc.value)
		set := func(*yaml.Node) (*yaml.Node, error) { return v, nil }
		got, err := Edit(tc.text, tc.opts, Change{Path: p(tc.path), Set: set})
		if err != nil || got != tc.want {
			t.Errorf("Edit(%q, %s = %s, %+v) = %q, %v; want %q", tc.text, tc.path, tc.value, tc.opts, got, err, tc.want)
		}
		plain := Options{Create: tc.opts.Create}
		got, err = Edit(tc.text, plain, Change{Path: p(tc.path), Set: set})
		if err != nil || got != tc.without {
			t.Errorf("without options: Edit(%q, %s = %s) = %q, %v; want %q", tc.text, tc.path, tc.value, got, err, tc.without)
		}
	}
}
