package valuemerge

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// JSON the editor cannot take is a ParseError that says where, like any
// other invalid value.
func TestJSONCheck(t *testing.T) {
	for _, tc := range []struct {
		text, msg    string
		line, column int
	}{
		{`{"a": [1, {"b": 1, "b": 2}], "c": 3}`, `duplicate key "b"`, 1, 20},
		{"{\n  \"a\": 1,\n  \"a\": 2\n}", `duplicate key "a"`, 3, 3},
		{"{\"a\": \"\xfb\"}", "invalid UTF-8", 1, 8},
		{strings.Repeat("[", 1100) + strings.Repeat("]", 1100), "nested more than 1000 levels deep", 1, 1002},
	} {
		err := Check(JSON, tc.text, "overlay")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Which != "overlay" || !strings.Contains(pe.Msg, tc.msg) || pe.Line != tc.line || pe.Column != tc.column {
			t.Errorf("Check(%.30q) = %#v, want %q at line %d, column %d", tc.text, err, tc.msg, tc.line, tc.column)
		}
	}
	// Keys repeated in different objects are different keys.
	if err := Check(JSON, `{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}`, "base"); err != nil {
		t.Errorf("repeated key in separate objects: %v", err)
	}
}

// The merge is expressed as edits: types come from the overlay, and a base
// that is not an object gives way to the overlay less its nulls.
func TestMergeJSONEdits(t *testing.T) {
	for _, tc := range []struct{ base, overlay, want string }{
		{`{"port": 80, "name": "x"}`, `{"port": "80", "name": 1}`, `{"port": "80", "name": 1}`},
		{"[1, 2]\n", `{"a": 1, "b": null}`, "{\"a\": 1}\n"},
		{`{"a": {"b": 1}}`, `{"a": {"b": null, "c": {"d": null}}}`, `{"a": {"c": {}}}`},
		{"{\n  \"a\": 1\n}", `{"b": {"c": [1,  2]}}`, "{\n  \"a\": 1,\n  \"b\": {\"c\": [1,  2]}\n}"},
	} {
		got, err := Merge(JSON, tc.base, tc.overlay)
		if err != nil || got != tc.want {
			t.Errorf("Merge(%q, %q) = %q, %v; want %q", tc.base, tc.overlay, got, err, tc.want)
		}
	}
}

// BenchmarkMergeJSON merges an overlay that changes, adds and deletes
// keys throughout a values file of 200 services.
func BenchmarkMergeJSON(b *testing.B) {
	var base, overlay strings.Builder
	base.WriteString("{\n")
	overlay.WriteString("{")
	for i := range 200 {
		if i > 0 {
			base.WriteString(",\n")
			overlay.WriteString(", ")
		}
		fmt.Fprintf(&base, "  \"svc%d\": {\n    \"image\": \"app:1.%d\",\n    \"replicas\": 2,\n    \"old\": true,\n    \"env\": {\"A\": \"1\"}\n  }", i, i)
		fmt.Fprintf(&overlay, "\"svc%d\": {\"replicas\": 3, \"old\": null, \"env\": {\"B\": \"2\"}}", i)
	}
	base.WriteString("\n}\n")
	overlay.WriteString("}")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Merge(JSON, base.String(), overlay.String()); err != nil {
			b.Fatal(err)
		}
	}
}
