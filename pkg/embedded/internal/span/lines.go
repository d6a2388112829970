package span

import (
	"strings"
	"unicode/utf8"
)

// Lines returns the offsets where the text's lines begin, computed on first
// use for JSON, which needs them only for messages and for laying out new
// entries.
func (t *Tree) Lines() []int {
	if t.lines == nil {
		t.lines = LineStarts(t.Text, t.yamlBreaks)
	}
	return t.lines
}

// Position converts a byte offset to a 1-based line and column (columns
// count characters, as editors and yaml.v3 do).
func (t *Tree) Position(off int) (line, col int) {
	return position(t.Text, t.Lines(), off)
}

// position is Tree.Position for a text and its line starts.
func position(text string, lines []int, off int) (line, col int) {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, utf8.RuneCountInString(text[lines[lo]:min(off, len(text))]) + 1
}

// LineOf returns the index of the line holding off.
func (t *Tree) LineOf(off int) int {
	l, _ := t.Position(off)
	return l - 1
}

// LineStarts returns the offsets where lines begin. "\r\n", "\r" and "\n"
// break lines; for YAML so do NEL, LS and PS, as yaml.v3 counts them.
func LineStarts(text string, yamlBreaks bool) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		if c := text[i]; c > '\r' && c < 0xC2 {
			continue // the bytes of most text, which break no line
		}
		if n := breakLen(text[i:], yamlBreaks); n > 0 {
			i += n - 1
			starts = append(starts, i+1)
		}
	}
	return starts
}

// breakLen returns the length of the line break that starts s, 0 when
// none does.
func breakLen(s string, yamlBreaks bool) int {
	switch {
	case s[0] == '\n':
		return 1
	case s[0] == '\r':
		if strings.HasPrefix(s, "\r\n") {
			return 2
		}
		return 1
	case yamlBreaks:
		return yamlBreakLen(s)
	}
	return 0
}

// yamlBreakLen returns the length of the line break only YAML has (NEL,
// LS, PS) that starts s, 0 when none does.
func yamlBreakLen(s string) int {
	switch {
	case strings.HasPrefix(s, "\u0085"):
		return 2
	case strings.HasPrefix(s, "\u2028"), strings.HasPrefix(s, "\u2029"):
		return 3
	}
	return 0
}

// LineEnd returns the offset of the line break ending the line that starts
// at ls (or the end of the text).
func LineEnd(t string, ls int) int {
	for i := ls; i < len(t); i++ {
		if t[i] == '\n' || t[i] == '\r' {
			return i
		}
	}
	return len(t)
}

// detectNewline returns the line break the text uses.
func detectNewline(text string) string {
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// IsSpace reports whether b is white space or a line break between YAML
// tokens.
func IsSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// SkipSpaceAndComments moves past spaces, tabs, line breaks and comments.
func SkipSpaceAndComments(t string, i int) int {
	for i < len(t) {
		switch {
		case IsSpace(t[i]):
			i++
		case t[i] == '#':
			i = LineEnd(t, i)
		default:
			return i
		}
	}
	return i
}
