package kv

import (
	"strings"
	"testing"
)

// FuzzParseEnv: any content parses or fails without panicking; every pair
// has a key without "=" or a line break, and a value without a line break,
// and re-parsing "key=value" lines gives the same pairs.
func FuzzParseEnv(f *testing.F) {
	for _, s := range []string{"A=1\n", "\xef\xbb\xbfA=1\r\n# c\n  B=x=y\nC\n", "=x\n", "A=\xff\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		pairs, err := ParseEnv(b, "envs[0]")
		if err != nil {
			return
		}
		// The file written back starts with a byte order mark, which the
		// parser drops: a first key that itself begins with U+FEFF (after
		// leading spaces, which kustomize also keeps the mark after) would
		// otherwise lose it as a mark.
		var again strings.Builder
		again.WriteString("\ufeff")
		for _, p := range pairs {
			if p.Key == "" || strings.ContainsAny(p.Key, "=\n") || strings.ContainsAny(p.Value, "\n") {
				t.Fatalf("bad pair %q=%q", p.Key, p.Value)
			}
			// CRLF endings: a value may end in "\r" (kustomize's line
			// scanner drops one "\r" before a line break, as we do), which
			// "\n" alone would turn into a CRLF ending.
			again.WriteString(p.Key + "=" + p.Value + "\r\n")
		}
		pairs2, err := ParseEnv([]byte(again.String()), "again")
		if err != nil || len(pairs2) != len(pairs) {
			t.Fatalf("re-parse: %v, %d pairs instead of %d", err, len(pairs2), len(pairs))
		}
		for i := range pairs {
			if pairs[i].Key != pairs2[i].Key || pairs[i].Value != pairs2[i].Value {
				t.Fatalf("re-parse changed %q=%q into %q=%q", pairs[i].Key, pairs[i].Value, pairs2[i].Key, pairs2[i].Value)
			}
		}
	})
}
