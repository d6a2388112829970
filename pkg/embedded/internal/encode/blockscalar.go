package encode

import (
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// blockScalar rewrites a literal or folded scalar with new content at the
// old content's indentation, keeping the comment on the header line.
// Folded style is kept only for one-line text, where folding changes
// nothing; longer text is written literally.
func blockScalar(value string, old *span.Node, newline string) (string, bool) {
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

// NewBlockScalar writes value as a literal block where no block scalar
// was: the value of a block whose indentation is parentIndent, its lines
// indented by unit more; false when a literal block cannot hold it.
func NewBlockScalar(value string, parentIndent, unit int, newline string) (string, bool) {
	at := &span.Node{Style: span.Literal, YAMLInfo: &span.YAMLInfo{BlockIndent: parentIndent + unit, ParentIndent: parentIndent}}
	return blockScalar(value, at, newline)
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
// at least with text, printable characters (tabs too, as yaml.v3 has it),
// and no line that starts with a tab, which libyaml reads as bad
// indentation.
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
