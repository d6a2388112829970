package encode

import (
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"
)

// YAMLDoubleQuote writes s as a YAML double-quoted scalar on one line.
// YAML accepts every JSON escape; characters that are not printable
// (package scalar's Printable: controls, NEL, the line and paragraph
// separators, the byte order mark, characters above U+FFFF) are escaped
// too.
func YAMLDoubleQuote(s string) string {
	return doubleQuote(s, func(r rune) bool { return !scalar.Printable(r) })
}

// YAMLSingleQuote writes s single-quoted when that can hold it (one line,
// printable characters).
func YAMLSingleQuote(s string) (string, bool) {
	for _, r := range s {
		if !scalar.Printable(r) {
			return "", false
		}
	}
	if !utf8.ValidString(s) {
		return "", false
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", true
}

// doubleQuote writes s between double quotes with the escapes JSON and YAML
// share, escaping as \u (or \U beyond the BMP) what the host cannot hold raw.
func doubleQuote(s string, escape func(rune) bool) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`)
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n', r == '\r', r == '\t':
			b.WriteString(shortEscapes[r])
		case escape(r):
			writeEscape(&b, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// shortEscapes are the escapes of the line breaks and tab.
var shortEscapes = map[rune]string{'\n': `\n`, '\r': `\r`, '\t': `\t`}

// writeEscape writes r as \u and four hex digits, or beyond the BMP as \U
// and eight.
func writeEscape(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	digits := 4
	if r > 0xffff {
		b.WriteString(`\U`)
		digits = 8
	} else {
		b.WriteString(`\u`)
	}
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte(hex[r>>shift&0xf])
	}
}
