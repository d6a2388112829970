package valuemerge

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// Format is the syntax of a value.
type Format string

const (
	JSON       Format = "json"
	YAML       Format = "yaml"
	Properties Format = "properties" // Java .properties
	Env        Format = "env"        // kustomize's env files: KEY=value lines
	TOML       Format = "toml"
)

// HasLists reports whether values of the format hold lists (mergeKeys
// can apply).
func (f Format) HasLists() bool { return f == JSON || f == YAML }

// formatNames is what ParseFormat accepts, for messages.
const formatNames = "json, yaml, properties, env or toml"

// ParseFormat accepts json, yaml (yml), properties, env and toml, in any
// case.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "json":
		return JSON, nil
	case "yaml", "yml":
		return YAML, nil
	case "properties":
		return Properties, nil
	case "env":
		return Env, nil
	case "toml":
		return TOML, nil
	case "":
		return "", fmt.Errorf("format is missing; give %s", formatNames)
	}
	return "", fmt.Errorf("unknown format %q; give %s", s, formatNames)
}

// ParseError reports a value that is not valid in its format.
type ParseError struct {
	// Which is "base" or "overlay".
	Which  string
	Format Format
	// Line and Column are 1-based; 0 when unknown.
	Line, Column int
	Msg          string
}

func (e *ParseError) Error() string {
	where := ""
	switch {
	case e.Line > 0 && e.Column > 0:
		where = fmt.Sprintf(" at line %d, column %d", e.Line, e.Column)
	case e.Line > 0:
		where = fmt.Sprintf(" at line %d", e.Line)
	}
	return fmt.Sprintf("%s value is not valid %s%s: %s", e.Which, strings.ToUpper(string(e.Format)), where, e.Msg)
}

// MergeError is a merge the values cannot take, though both parse: a key
// the merge must match is a map or a list.
type MergeError struct{ Msg string }

func (e *MergeError) Error() string { return e.Msg }

// Merge returns base with overlay merged into it. An empty (or blank) base
// counts as an empty map; a blank overlay is an error. The lists that
// lists declare (JSON and YAML) merge by key instead of being replaced.
func Merge(format Format, base, overlay string, lists ...schema.ListKeys) (string, error) {
	m, err := MergeText(format, base, overlay, lists...)
	return m.Text, err
}

// Merged is a merge's result: its text, what that text does not keep of
// the base's, and what the list declarations led to.
type Merged struct {
	Text string
	// Lost, when not empty, says what the text loses of the base's
	// (comments, layout, key order), for a warning, and Why why, naming
	// a place in the value (which may be secret): a TOML merge that
	// cannot be written as edits of the base is written whole by the
	// TOML library.
	Lost, Why string
	// Reaches says, for each list declaration (JSON and YAML), what it
	// leads to in the merged value (schema.Reach): one that leads to no
	// list merged nothing by its keys, and the overlay's list replaced
	// the base's whole.
	Reaches []schema.Reach
}

// MergeText is Merge, saying what the result loses of the base's text.
func MergeText(format Format, base, overlay string, lists ...schema.ListKeys) (Merged, error) {
	return MergeLists(format, base, overlay, lists, false)
}

// MergeLists is MergeText, also saying what each of lists leads to
// (Merged.Reaches). For a Secret's value (secret), what a Reach says
// names no key of it.
func MergeLists(format Format, base, overlay string, lists []schema.ListKeys, secret bool) (Merged, error) {
	var text string
	var reaches []schema.Reach
	var err error
	switch format {
	case JSON, YAML:
		text, reaches, err = mergeDoc(format, base, overlay, lists, secret)
	case Properties:
		text, err = mergeLines(format, readProperties, base, overlay)
	case Env:
		text, err = mergeLines(format, readEnv, base, overlay)
	case TOML:
		return mergeTOML(base, overlay)
	default:
		err = fmt.Errorf("unknown format %q; give %s", format, formatNames)
	}
	return Merged{Text: text, Reaches: reaches}, err
}

// Check reports whether s is valid in format; which ("base", "overlay")
// names it in the error.
func Check(format Format, s, which string) error {
	switch format {
	case JSON:
		return checkJSON(s, which)
	case YAML:
		_, err := parseYAML(s, which)
		return err
	case Properties:
		_, err := readEntries(format, readProperties, s, which)
		return err
	case Env:
		_, err := readEntries(format, readEnv, s, which)
		return err
	case TOML:
		return checkTOML(s, which)
	}
	return fmt.Errorf("unknown format %q; give %s", format, formatNames)
}

// lineCol turns a byte offset into a 1-based line and column (in runes).
func lineCol(s string, off int) (int, int) {
	off = max(0, min(off, len(s)))
	line := 1 + strings.Count(s[:off], "\n")
	start := strings.LastIndexByte(s[:off], '\n') + 1
	return line, 1 + len([]rune(s[start:off]))
}

// checkUTF8 refuses a value that is not UTF-8, naming where its first
// bad byte is.
func checkUTF8(s, which string, f Format) error {
	off := invalidUTF8(s)
	if off < 0 {
		return nil
	}
	line, col := lineCol(s, off)
	return &ParseError{Which: which, Format: f, Line: line, Column: col, Msg: "invalid UTF-8"}
}

// invalidUTF8 returns the offset of the first byte of s that is not UTF-8,
// or -1.
func invalidUTF8(s string) int {
	for off := 0; off < len(s); {
		r, size := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && size == 1 {
			return off
		}
		off += size
	}
	return -1
}
