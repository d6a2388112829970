package write

import (
	"fmt"
	"sort"
	"strings"
)

// Edit replaces Text[Start:End] of the document with Text.
type Edit struct {
	Start, End int
	Text       string
	// Depth is that of the address edited: of two insertions at one
	// offset, the deeper goes first (an entry added to a YAML block map
	// comes after one added to the last value in it).
	Depth int
}

// Apply writes the edits into text, in order of offset; edits that
// overlap are an error.
func Apply(text string, edits []Edit) (string, error) {
	sort.SliceStable(edits, func(i, j int) bool { return before(edits[i], edits[j]) })
	var b strings.Builder
	b.Grow(len(text) + 64)
	pos := 0
	for _, e := range edits {
		if e.Start < pos || e.End < e.Start || e.End > len(text) {
			return "", fmt.Errorf("two edits overlap")
		}
		b.WriteString(text[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(text[pos:])
	return b.String(), nil
}

// before orders edits by offset; at one offset an insertion goes before a
// replacement, and of two insertions the deeper first.
func before(a, b Edit) bool {
	if a.Start != b.Start {
		return a.Start < b.Start
	}
	if (a.End == a.Start) != (b.End == b.Start) {
		return a.End == a.Start
	}
	return a.Depth > b.Depth
}
