package embedded

import (
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// jsonScalar writes a scalar of the given type as JSON.
func jsonScalar(tag, value string) string {
	switch tag {
	case span.IntTag, span.FloatTag:
		return value
	case span.BoolTag:
		if b, _ := boolWord(value); b {
			return "true"
		}
		return "false"
	case span.NullTag:
		return "null"
	}
	return jsonQuote(value)
}

// jsonQuote writes s as a JSON string. Unlike encoding/json it leaves <, >
// and & alone: the text is configuration, not HTML.
func jsonQuote(s string) string {
	return doubleQuote(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// yamlDoubleQuote writes s as a YAML double-quoted scalar on one line.
// YAML accepts every JSON escape; characters YAML does not allow raw
// (controls, NEL, the line and paragraph separators, the byte order mark)
// are escaped too.
func yamlDoubleQuote(s string) string {
	return doubleQuote(s, func(r rune) bool { return !scalar.Printable(r) })
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
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case escape(r):
			if r > 0xffff {
				b.WriteString(`\U`)
				b.WriteString(strings.Repeat("0", 8-len(hexOf(r))))
				b.WriteString(hexOf(r))
			} else {
				writeU4(&b, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

// writeU4 writes r as a \u escape of four hex digits.
func writeU4(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xf])
	b.WriteByte(hex[r>>8&0xf])
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}

// hexOf returns r in lower-case hex, without leading zeros.
func hexOf(r rune) string {
	const hex = "0123456789abcdef"
	var buf [8]byte
	i := len(buf)
	for r > 0 || i == len(buf) {
		i--
		buf[i] = hex[r&0xf]
		r >>= 4
	}
	return string(buf[i:])
}

// yamlSingleQuote writes s single-quoted when that can hold it (one line,
// printable characters).
func yamlSingleQuote(s string) (string, bool) {
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

// yamlPlainOK reports whether s can be written as a plain scalar and read
// back as the same string, by yaml.v3 and by YAML 1.1 readers alike
// ("yes" and "on" are booleans there, so they are quoted): the project's
// one rule, package scalar's.
func yamlPlainOK(s string, inFlow bool) bool {
	return scalar.CanBePlain(s, inFlow) && !scalar.NeedsQuotes(s)
}

// yamlScalar writes a scalar of the given type for a YAML document. The
// style of old, the scalar being replaced (nil for a new value), is kept
// when it can hold the new text; a block scalar keeps old's indentation
// too.
func yamlScalar(tag, value string, old *span.Node, inFlow bool, newline string) string {
	switch tag {
	case span.IntTag, span.FloatTag:
		return value
	case span.BoolTag:
		return value
	case span.NullTag:
		if value == "" {
			return "null"
		}
		switch value {
		case "~", "null", "Null", "NULL": // a null keeps its spelling
			return value
		}
		return "null"
	}
	prefer := span.Plain
	if old != nil && old.Kind == span.Scalar {
		prefer = old.Style
	}
	switch prefer {
	case span.Literal, span.Folded:
		if s, ok := yamlBlockScalar(value, old, newline); ok {
			return s
		}
	case span.Single:
		if !strings.ContainsAny(value, "\n\r") {
			if s, ok := yamlSingleQuote(value); ok {
				return s
			}
		}
	case span.Plain:
		if yamlPlainOK(value, inFlow) {
			return value
		}
	}
	return yamlDoubleQuote(value)
}

// yamlBlockScalar rewrites a literal or folded scalar with new content at
// the old content's indentation, keeping the comment on the header line.
// Folded style is kept only for one-line text, where folding changes
// nothing; longer text is written literally.
func yamlBlockScalar(value string, old *span.Node, newline string) (string, bool) {
	body, chomp, ok := blockBody(value)
	if !ok {
		return "", false
	}
	lines := strings.Split(body, "\n")
	if !blockLinesOK(lines) {
		return "", false
	}
	indicator, ok := blockIndicator(lines, old)
	if !ok {
		return "", false
	}
	pad := strings.Repeat(" ", old.BlockIndent)
	var b strings.Builder
	b.WriteString(indicator)
	b.WriteString(chomp)
	b.WriteString(old.HeaderRest)
	for _, l := range lines {
		b.WriteString(newline)
		if l != "" {
			b.WriteString(pad)
			b.WriteString(l)
		}
	}
	return b.String(), true
}

// blockBody returns the text of a block scalar's lines for value, and the
// chomping indicator that gives back its final line break: none when it
// ends with one, "-" when it does not. A value that ends with blank lines
// cannot be written: "keep" chomping would swallow the blank lines after
// it.
func blockBody(value string) (body, chomp string, ok bool) {
	switch {
	case strings.HasSuffix(value, "\n\n"):
		return "", "", false
	case strings.HasSuffix(value, "\n"):
		body = value[:len(value)-1]
	default:
		body, chomp = value, "-"
	}
	if body == "" || strings.ContainsRune(body, '\r') || !utf8.ValidString(body) {
		return "", "", false
	}
	return body, chomp, true
}

// blockLinesOK reports whether lines can be a block scalar's content: one
// at least with text, printable characters (tabs too), and no line that
// starts with a tab, which libyaml reads as bad indentation.
func blockLinesOK(lines []string) bool {
	nonBlank := false
	for _, l := range lines {
		for _, r := range l {
			if !scalar.Printable(r) && r != '\t' {
				return false
			}
		}
		if strings.HasPrefix(l, "\t") {
			return false
		}
		if strings.TrimLeft(l, " ") != "" {
			nonBlank = true
		}
	}
	return nonBlank
}

// blockIndicator is the header of a block scalar written over old: folded
// (>) kept for one-line text, literal (|) otherwise, with an indentation
// indicator when leading spaces on the first line with text would be read
// as indentation (ok is false when old's indentation cannot be given so).
func blockIndicator(lines []string, old *span.Node) (string, bool) {
	indicator := "|"
	if old.Style == span.Folded && len(lines) == 1 {
		indicator = ">"
	}
	if !needsIndentIndicator(lines) {
		return indicator, true
	}
	m := old.BlockIndent - max(old.ParentIndent, 0)
	if m < 1 || m > 9 {
		return "", false
	}
	return indicator + string(rune('0'+m)), true
}

// yamlKey writes a new map key.
func yamlKey(k string, inFlow bool) string {
	if yamlPlainOK(k, inFlow) {
		return k
	}
	return yamlDoubleQuote(k)
}

// needsIndentIndicator reports whether a block scalar's content indentation
// cannot be detected from its lines: the first line with text starts with a
// space, or a blank line before it holds spaces.
func needsIndentIndicator(lines []string) bool {
	for _, l := range lines {
		if l == "" {
			continue
		}
		return l[0] == ' '
	}
	return false
}

// givenText writes a string in the quoting of the node given, under
// Options.GivenStyle, when the text allows that quoting.
func (d *doc) givenText(tag string, v *yaml.Node, inFlow bool) (string, bool) {
	if !d.givenStyle || d.jsonish || tag != span.StrTag {
		return "", false
	}
	return givenQuote(v, inFlow)
}

// givenQuote writes v's string in v's own quoting when it can hold it.
func givenQuote(v *yaml.Node, inFlow bool) (string, bool) {
	switch {
	case v.Style&yaml.DoubleQuotedStyle != 0:
		return yamlDoubleQuote(v.Value), true
	case v.Style&yaml.SingleQuotedStyle != 0:
		if !strings.ContainsAny(v.Value, "\n\r") {
			return yamlSingleQuote(v.Value)
		}
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if yamlPlainOK(v.Value, inFlow) {
			return v.Value, true
		}
	}
	return "", false
}
