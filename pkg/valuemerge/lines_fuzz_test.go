package valuemerge

import (
	"errors"
	"strings"
	"testing"

	"github.com/magiconair/properties"
)

// FuzzMergeProperties: any base and overlay either fail with a ParseError
// or merge into text that reads back as the merge means (Merge checks that
// and reports a failure as an internal error, which fails here), keeps the
// base's bytes up to the first value it changes, and does not change when
// merged again. Where both texts avoid what magiconair/properties reads
// unlike Java (a \r, an empty key, a backslash continuing a key or ending
// the text, a \u escape in a continued line), that library must read them
// as readProperties does.
func FuzzMergeProperties(f *testing.F) {
	for _, s := range [][2]string{
		{"# c\na=1\nb : 2\n", "a=3\nc=4\n"},
		{"a=first \\\n  second\nb\n", "b=x\\\n  y\n"},
		{"k\\ ey\\:=v\\u00e9\n! bang\n", "k\\ ey\\:=w\n"},
		{"a=1\r\nb=2", "c=3"},
		{"x\\\n", "x=1"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, base, overlay string) {
		for _, text := range []string{base, overlay} {
			if es, err := readProperties(text, "base"); err == nil && javaLike(text, es) {
				compareMagiconair(t, text, es)
			}
		}
		out, err := Merge(Properties, base, overlay)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error that is not a ParseError: %v", err)
			}
			return
		}
		again, err := Merge(Properties, out, overlay)
		if err != nil || again != out {
			t.Fatalf("merging twice differs from once (%v):\nonce:  %q\ntwice: %q", err, out, again)
		}
	})
}

// javaLike reports whether magiconair/properties reads text as Java does.
func javaLike(text string, es []entry) bool {
	if strings.ContainsRune(text, '\r') || strings.HasSuffix(text, `\`) {
		return false
	}
	for _, e := range es {
		if e.key == "" {
			return false
		}
		// a continuation before the value starts: the key, or the
		// separator, goes on over a line break
		lines := strings.TrimSuffix(text[e.start:e.end], "\n")
		if strings.HasSuffix(lines, `\`) || strings.Contains(lines, "\n") && (e.valueStart == e.valueEnd || strings.Contains(text[e.start:e.valueStart], "\n")) {
			return false
		}
		// Java joins a continued line before it reads escapes; the
		// library reads escapes first, so a \uXXXX broken over the join
		// is an error to it
		if strings.Contains(lines, "\n") && strings.Contains(lines, `\u`) {
			return false
		}
	}
	return true
}

func compareMagiconair(t *testing.T, text string, es []entry) {
	t.Helper()
	l := &properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}
	p, err := l.LoadBytes([]byte(text))
	if err != nil {
		t.Fatalf("%q: magiconair/properties: %v; readProperties read %d entries", text, err, len(es))
	}
	keys := p.Keys()
	// the library keeps the last of repeated keys, at the first's place
	var want []entry
	seen := map[string]int{}
	for _, e := range es {
		if i, ok := seen[e.key]; ok {
			want[i].value = e.value
			continue
		}
		seen[e.key] = len(want)
		want = append(want, e)
	}
	if len(keys) != len(want) {
		t.Fatalf("%q: magiconair reads keys %q, readProperties %d entries", text, keys, len(want))
	}
	for i, k := range keys {
		v, _ := p.Get(k)
		if k != want[i].key || v != want[i].value {
			t.Fatalf("%q: entry %d: magiconair reads %q=%q, readProperties %q=%q", text, i, k, v, want[i].key, want[i].value)
		}
	}
}
