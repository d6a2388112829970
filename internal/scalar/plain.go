package scalar

import (
	"strings"
	"unicode/utf8"
)

// Printable reports whether r may stand for itself in a YAML scalar written
// on one line: what yaml.v3's emitter takes for printable (is_printable),
// which is what decides whether it writes a string plain, quoted or
// escaped, less the line breaks among those (\n, U+2028, U+2029), which a
// writer writes as breaks, escapes or refuses. Not printable: control
// characters (a tab among them: yaml.v3 quotes a string holding one),
// DEL, U+0080 to U+009F (NEL among them), U+FEFF, U+FFFE, U+FFFF, and
// every character above U+FFFF, which yaml.v3 writes as a \U escape in
// double quotes.
func Printable(r rune) bool {
	switch {
	case r >= 0x20 && r <= 0x7e:
		return true
	case r >= 0xa0 && r <= 0xd7ff:
		return r != 0x2028 && r != 0x2029
	case r >= 0xe000 && r <= 0xfffd:
		return r != 0xfeff
	}
	return false
}

// CanBePlain reports whether s, written as a plain scalar (inside a flow
// collection when inFlow), reads back as the text s: yaml.v3's emitter's
// rule (analyze_scalar), which FuzzCanBePlain holds it to. s must be
// valid UTF-8 of printable characters on one line, with no space
// at either end, no indicator where a plain scalar cannot have one (a
// leading "-", "?" or ":" and space, a leading "#", "&", "!", quote, ...;
// ": " and " #" anywhere; a document marker), and, in a flow collection,
// none of ",?[]{}:" anywhere. The empty string may be plain outside flow
// collections ("k:"), where every reader takes it for null.
//
// Whether readers then take that text for a string, not a number, boolean
// or null, is NeedsQuotes's question: a string may be written plain when
// CanBePlain(s, inFlow) && !NeedsQuotes(s). yaml.v3's encoder, which
// QuoteIfNeeded prepares nodes for, asks only the first.
func CanBePlain(s string, inFlow bool) bool {
	if s == "" {
		return !inFlow
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false // a document marker
	}
	return plainStart(s, inFlow) && plainRest(s, inFlow)
}

// plainStart reports whether the first character of s may start a plain
// scalar.
func plainStart(s string, inFlow bool) bool {
	spaceAfter := len(s) == 1 || s[1] == ' '
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':':
		return !inFlow && !spaceAfter
	case '-':
		return !spaceAfter
	}
	return true
}

// plainRest reports whether every character of s is printable and, after
// the first, is no indicator there: ":" before a space or at the end, "#"
// after a space, and in a flow collection any of ",?[]{}:".
func plainRest(s string, inFlow bool) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			w, ok := printableUTF8(s[i:])
			if !ok {
				return false
			}
			i += w - 1
			continue
		}
		if !Printable(rune(s[i])) || i > 0 && indicatorInside(s, i, inFlow) {
			return false
		}
	}
	return true
}

// printableUTF8 reports whether the character that starts s, not ASCII, is
// valid UTF-8 and Printable; w is its width.
func printableUTF8(s string) (w int, ok bool) {
	r, w := utf8.DecodeRuneInString(s)
	return w, Printable(r) && !(r == utf8.RuneError && w == 1)
}

// indicatorInside reports whether the ASCII character s[i], not the first,
// is an indicator that ends or breaks a plain scalar there.
func indicatorInside(s string, i int, inFlow bool) bool {
	switch s[i] {
	case ',', '?', '[', ']', '{', '}':
		return inFlow
	case ':':
		return inFlow || i+1 == len(s) || s[i+1] == ' '
	case '#':
		return s[i-1] == ' '
	}
	return false
}
