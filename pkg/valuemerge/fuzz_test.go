package valuemerge

import (
	"errors"
	"fmt"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	yaml "go.yaml.in/yaml/v3"
)

// FuzzMerge: any base and overlay either fail with a ParseError naming one
// of them, or merge into text that parses, means what RFC 7386 says, and
// does not change when merged again.
func FuzzMerge(f *testing.F) {
	for _, tc := range mergeCases {
		f.Add(tc.format == YAML, tc.base, tc.overlay)
	}
	f.Fuzz(func(t *testing.T, isYAML bool, base, overlay string) {
		format := JSON
		if isYAML {
			format = YAML
		}
		out, err := Merge(format, base, overlay)
		if err != nil {
			var pe *ParseError
			var me *MergeError
			if !errors.As(err, &pe) && !errors.As(err, &me) {
				t.Fatalf("error that is neither a ParseError nor a MergeError: %v", err)
			}
			return
		}
		if err := Check(format, out, "result"); err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, out)
		}
		again, err := Merge(format, out, overlay)
		if err != nil {
			t.Fatalf("second merge: %v", err)
		}
		if again != out {
			t.Fatalf("merging twice differs from once:\nonce:\n%s\ntwice:\n%s", out, again)
		}
	})
}

// FuzzMergeKeyed is FuzzMerge with the lists at a and at b.*.c merged by
// name: the result means what jsonpatch.MergeValuesKeyed says (Merge checks
// that itself, and reports a failure as an internal error, which fails
// here), and merging again changes nothing where the overlay's elements
// have distinct names (two elements with one name merge in turn, as in
// strategic merge, which no second run repeats the same way).
func FuzzMergeKeyed(f *testing.F) {
	for _, tc := range mergeCases {
		f.Add(tc.format == YAML, tc.base, tc.overlay)
	}
	f.Add(true, "a:\n  # one\n  - name: x\n    v: 1\n\n  - name: y\n", "a:\n- {name: x, $patch: delete}\n- {name: z}\n")
	f.Add(false, `{"a": [{"name": "x"}, {"name": "y", "v": [1]}]}`, `{"a": [{"name": "y", "v": null}, {"name": "w"}]}`)
	f.Add(true, "b:\n  k:\n    c:\n    - name: 1\n", "b: {k: {c: [{name: 1, v: 2}, {name: 2}]}}\n")
	keyed := []schema.ListKeys{
		{Path: fieldpath.MustParse("a"), Keys: []string{"name"}},
		{Path: fieldpath.MustParse("b.*.c"), Keys: []string{"name"}},
	}
	f.Fuzz(func(t *testing.T, isYAML bool, base, overlay string) {
		format := JSON
		if isYAML {
			format = YAML
		}
		out, err := Merge(format, base, overlay, keyed...)
		if err != nil {
			var pe *ParseError
			var me *MergeError
			if !errors.As(err, &pe) && !errors.As(err, &me) {
				t.Fatalf("error that is neither a ParseError nor a MergeError: %v", err)
			}
			return
		}
		if err := Check(format, out, "result"); err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, out)
		}
		again, err := Merge(format, out, overlay, keyed...)
		if err != nil {
			t.Fatalf("second merge: %v", err)
		}
		if again != out && !repeatsNames(overlay) {
			t.Fatalf("merging twice differs from once:\nonce:\n%s\ntwice:\n%s", out, again)
		}
	})
}

// repeatsNames reports whether some list of the overlay has two elements
// with one name.
func repeatsNames(overlay string) bool {
	var v any
	if yaml.Unmarshal([]byte(overlay), &v) != nil {
		return true
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			for _, c := range x {
				if walk(c) {
					return true
				}
			}
		case []any:
			seen := map[string]bool{}
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					k := fmt.Sprint(m["name"])
					if seen[k] {
						return true
					}
					seen[k] = true
				}
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
