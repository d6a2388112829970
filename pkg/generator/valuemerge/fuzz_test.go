package valuemerge

import (
	"errors"
	"testing"
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
