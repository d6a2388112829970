package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// TestPlainAsYAMLv3 pins the one rule for plain scalars and printable
// characters (package scalar's CanBePlain and Printable), which is yaml.v3's
// emitter's: a character above U+FFFF is escaped in double quotes, not
// written plain, single-quoted or in a block scalar; inside a flow
// collection a string may be plain with quotes, "&", "!", "|" and "#"
// (not after a space) in it; and only a space counts as a space at either
// end (U+00A0 is a character like any other).
func TestPlainAsYAMLv3(t *testing.T) {
	for _, c := range []struct{ text, path, value, want string }{
		{"k: x\n", "k", "a😀", "k: \"a\\U0001f600\"\n"},
		{"k: 'x'\n", "k", "a😀", "k: \"a\\U0001f600\"\n"},
		{"k: |\n  x\n", "k", "a😀\n", "k: \"a\\U0001f600\\n\"\n"},
		{"k: [x]\n", "k.0", "a'b&c!d|e#f", "k: [a'b&c!d|e#f]\n"},
		{"k: {a: x}\n", "k.a", "a\"b%c@d", "k: {a: a\"b%c@d}\n"},
		{"k: [x]\n", "k.0", "a #b", "k: [\"a #b\"]\n"},
		{"k: x\n", "k", "\u00a0x\u00a0", "k: \u00a0x\u00a0\n"},
	} {
		got, err := Set(c.text, fieldpath.MustParse(c.path), Options{}, setTo(str(c.value)))
		if err != nil || got != c.want {
			t.Errorf("Set(%q, %s, %q) = %q, %v; want %q", c.text, c.path, c.value, got, err, c.want)
		}
	}
}
