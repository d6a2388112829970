package valuemerge

import (
	"fmt"
	"strings"
)

// Line formats: Java .properties and kustomize's env files hold one key
// and value per (logical) line. A merge replaces the values of the keys
// the overlay sets and appends the keys it adds; every other byte of the
// base (comments, blank lines, order, spacing, escapes, line breaks) stays
// as it is. A changed value is written as the overlay wrote it, after the
// base's key and separator; a new key as the overlay's lines, with the
// comment lines right above it. The result is read again and must hold
// exactly the base's keys, in order, with the overlay's values, then the
// new keys: a failure is a bug here, reported rather than written.

// entry is one key and value of a line format, and where it is.
type entry struct {
	key, value string
	// start and end delimit the entry's lines, end after its line break;
	// from is where the comment lines directly above it start.
	start, end, from int
	// valueStart and valueEnd delimit the value's text, before the line
	// break; sep says whether a separator comes before it (a value written
	// where there is none needs one).
	valueStart, valueEnd int
	sep                  bool
	explicit             bool // the separator is = or :, not only white space
	line                 int  // 1-based, of start
	// open says the text ends inside the entry, after a backslash that would
	// continue it onto whatever line follows.
	open bool
}

// commentRun is where the comment lines directly above a reader's line
// start, noComments when there are none: they go with the entry that
// follows, moved or appended with it.
type commentRun int

const noComments commentRun = -1

// blank ends the run: a blank line parts comments from the entry below.
func (c *commentRun) blank() { *c = noComments }

// comment adds a comment line starting at start.
func (c *commentRun) comment(start int) {
	if *c == noComments {
		*c = commentRun(start)
	}
}

// take gives entry e the comment lines above it, and starts a new run.
func (c *commentRun) take(e *entry) {
	e.from = e.start
	if *c != noComments {
		e.from = int(*c)
	}
	*c = noComments
}

// lineReader reads a line format into its entries; which ("base",
// "overlay") names the text in errors.
type lineReader func(s, which string) ([]entry, error)

func mergeLines(format Format, read lineReader, base, overlay string) (string, error) {
	over, err := readEntries(format, read, overlay, "overlay")
	if err != nil {
		return "", err
	}
	if len(over) == 0 {
		return "", &ParseError{Which: "overlay", Format: format, Msg: "the value sets no key"}
	}
	if strings.TrimSpace(base) == "" {
		return overlay, nil
	}
	entries, err := readEntries(format, read, base, "base")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	inBase := replaceValues(&b, base, overlay, entries, over)
	for _, o := range over {
		if !inBase[o.key] {
			appendEntry(&b, base, overlay, entries, o)
		}
	}
	out := b.String()
	if err := checkLines(read, entries, over, out); err != nil {
		return "", err
	}
	return out, nil
}

// readEntries reads a text's entries, refusing a key set twice.
func readEntries(format Format, read lineReader, s, which string) ([]entry, error) {
	es, err := read(s, which)
	if err == nil {
		err = noRepeatedKey(format, es, which)
	}
	return es, err
}

// replaceValues writes the base into b with the values the overlay
// changes replaced, and returns the base's keys.
func replaceValues(b *strings.Builder, base, overlay string, entries, over []entry) map[string]bool {
	overlayOf := make(map[string]entry, len(over))
	for _, e := range over {
		overlayOf[e.key] = e
	}
	at := 0
	inBase := map[string]bool{}
	for _, e := range entries {
		inBase[e.key] = true
		o, ok := overlayOf[e.key]
		if !ok || o.value == e.value {
			continue
		}
		b.WriteString(base[at:e.valueStart])
		raw := overlay[o.valueStart:o.valueEnd]
		if !e.sep || !e.explicit && strings.ContainsAny(raw[:min(1, len(raw))], "=:") {
			// no separator, or only white space, which would let a
			// value starting with = or : read as the separator
			b.WriteString("=")
		}
		b.WriteString(raw)
		at = e.valueEnd
	}
	b.WriteString(base[at:])
	return inBase
}

// appendEntry writes an entry the base lacks after what b holds: the
// overlay's lines for it, with the comment lines right above it.
func appendEntry(b *strings.Builder, base, overlay string, entries []entry, o entry) {
	if out := b.String(); !strings.HasSuffix(out, "\n") && !strings.HasSuffix(out, "\r") {
		b.WriteString(lineBreak(base))
	}
	if n := len(entries); n > 0 && entries[n-1].open {
		// a blank line ends the base's last entry, which a backslash
		// would continue onto the new one ("\r" then "\n" would be one
		// line break)
		if br := lineBreak(base); strings.HasSuffix(b.String(), "\r") && br == "\n" {
			b.WriteString("\r")
		} else {
			b.WriteString(br)
		}
		entries[n-1].open = false
	}
	b.WriteString(overlay[o.from:o.end])
}

// checkLines is the safety net: out must read as the base's keys, in
// order, with the overlay's values, then the overlay's new keys.
func checkLines(read lineReader, base, over []entry, out string) error {
	got, err := read(out, "result")
	if err != nil {
		return fmt.Errorf("internal error merging (please report): the result does not read back: %v", err)
	}
	want := mergeEntries(base, over)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i].key == want[i].key && got[i].value == want[i].value
	}
	if !ok {
		// The texts are not quoted: they may be a Secret's values.
		return fmt.Errorf("internal error merging (please report): the result does not read back as the merge")
	}
	return nil
}

// mergeEntries is what a line-format merge means: the base's keys in
// order, the overlay's values winning, then the overlay's new keys.
func mergeEntries(base, over []entry) []entry {
	val := map[string]string{}
	for _, o := range over {
		val[o.key] = o.value
	}
	var out []entry
	seen := map[string]bool{}
	for _, e := range base {
		if v, ok := val[e.key]; ok {
			e.value = v
		}
		seen[e.key] = true
		out = append(out, e)
	}
	for _, o := range over {
		if !seen[o.key] {
			out = append(out, o)
		}
	}
	return out
}

// noRepeatedKey refuses a text that sets a key twice: readers keep the last
// (Java) or refuse it (kustomize), and which one a merge should change is
// not clear either way.
func noRepeatedKey(format Format, es []entry, which string) error {
	first := map[string]int{}
	for _, e := range es {
		if l, ok := first[e.key]; ok {
			return &ParseError{Which: which, Format: format, Line: e.line,
				Msg: fmt.Sprintf("the key %q is set twice (lines %d and %d); remove one", e.key, l, e.line)}
		}
		first[e.key] = e.line
	}
	return nil
}

// lineBreak is the line break the text uses: \r\n when its first line
// ends so, else \n.
func lineBreak(s string) string {
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// naturalLines splits s into lines ending in \n, \r\n or \r (the last may
// have no line break), as Java's LineReader does; each is [start, end)
// with contentEnd before its break.
type natLine struct{ start, contentEnd, end int }

func naturalLines(s string) []natLine {
	var out []natLine
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			out = append(out, natLine{start, i, i + 1})
			start = i + 1
		case '\r':
			end := i + 1
			if end < len(s) && s[end] == '\n' {
				end++
			}
			out = append(out, natLine{start, i, end})
			start = end
			i = end - 1
		}
	}
	if start < len(s) {
		out = append(out, natLine{start, len(s), len(s)})
	}
	return out
}

// lineEnd is the offset after the line break of the line holding off (the
// text's end when the line has none).
func lineEnd(s string, off int) int {
	if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(s)
}
