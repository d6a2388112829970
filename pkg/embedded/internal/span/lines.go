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
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case 0xC2:
			if yamlBreaks && i+1 < len(text) && text[i+1] == 0x85 {
				i++
				starts = append(starts, i+1)
			}
		case 0xE2:
			if yamlBreaks && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9) {
				i += 2
				starts = append(starts, i+1)
			}
		}
	}
	return starts
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
			for i < len(t) && t[i] != '\n' && t[i] != '\r' {
				i++
			}
		default:
			return i
		}
	}
	return i
}
