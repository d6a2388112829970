package valuemerge

import (
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// diffList compares two lists. Where the wanted list keeps elements of the
// document's (a merge by key merges into them), those are edited where
// they are, the ones it dropped are taken out with their lines, and new
// ones are appended; a list whose kept elements moved, or that gains
// elements before them, is written whole. A list that keeps none (a list
// replaced, as RFC 7386 replaces lists) is edited element by element while
// it does not shrink. It reports false when the list is to be written
// whole.
func (w *writer) diffList(path fieldpath.Path, a, b *yaml.Node) (bool, error) {
	pos, tracked := w.align(a, b)
	switch {
	case !tracked:
		return w.diffPositions(path, a, b)
	case pos == nil:
		return false, nil
	}
	gone := dropped(a, pos)
	if len(gone) > 0 && !w.lines.cutElements(a, gone) {
		return false, nil
	}
	return true, w.diffAligned(path, a, b, pos, gone)
}

// diffAligned edits the elements of a that b keeps (pos, from align)
// where they are, once those gone are taken out, and appends b's new
// ones.
func (w *writer) diffAligned(path fieldpath.Path, a, b *yaml.Node, pos, gone []int) error {
	size := len(a.Content) - len(gone)
	for i, j := range pos {
		if j < 0 {
			if err := w.appendElement(path, size, b.Content[i]); err != nil {
				return err
			}
			size++
			continue
		}
		if err := w.diff(appendIndex(path, j-countBelow(gone, j)), a.Content[j], b.Content[i]); err != nil {
			return err
		}
	}
	return nil
}

// align gives, for each element of b, the position in a of the element
// it keeps (-1 for a new one). tracked is false when b keeps none of a's
// elements; pos is nil when the kept ones change order or new ones come
// before one of them.
func (w *writer) align(a, b *yaml.Node) (pos []int, tracked bool) {
	at := make(map[*yaml.Node]int, len(a.Content))
	for j, e := range a.Content {
		at[e] = j
	}
	pos = make([]int, len(b.Content))
	last, fresh := -1, false
	for i, e := range b.Content {
		j, ok := at[w.d.origin[e]]
		if !ok {
			pos[i], fresh = -1, true
			continue
		}
		tracked = true
		if j <= last || fresh {
			return nil, true
		}
		pos[i], last = j, j
	}
	return pos, tracked
}

// diffPositions edits a list element by element and appends the rest; a
// list that shrinks is written whole (false).
func (w *writer) diffPositions(path fieldpath.Path, a, b *yaml.Node) (bool, error) {
	if len(b.Content) < len(a.Content) {
		return false, nil
	}
	for i := range a.Content {
		if err := w.diff(appendIndex(path, i), a.Content[i], b.Content[i]); err != nil {
			return true, err
		}
	}
	for i := len(a.Content); i < len(b.Content); i++ {
		if err := w.appendElement(path, i, b.Content[i]); err != nil {
			return true, err
		}
	}
	return true, nil
}

// appendElement adds v as element i, the first past the end of the list
// at path once the elements before it are written.
func (w *writer) appendElement(path fieldpath.Path, i int, v *yaml.Node) error {
	at := appendIndex(path, i)
	if err := w.newKeys(at, v); err != nil {
		return err
	}
	w.appends = append(w.appends, w.set(at, v, true))
	return nil
}

// dropped lists the positions of a's elements that pos does not keep.
func dropped(a *yaml.Node, pos []int) []int {
	kept := make(map[int]bool, len(pos))
	for _, j := range pos {
		kept[j] = true
	}
	var gone []int
	for j := range a.Content {
		if !kept[j] {
			gone = append(gone, j)
		}
	}
	return gone
}

// countBelow counts the positions in gone below j: where element j is once
// they are taken out.
func countBelow(gone []int, j int) int {
	n := 0
	for _, k := range gone {
		if k < j {
			n++
		}
	}
	return n
}

func appendIndex(path fieldpath.Path, i int) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Index, Index: i, Key: strconv.Itoa(i)})
}

// lineCut is the lines of a YAML text that elements taken out of block
// lists span.
type lineCut struct {
	lines []string // each with its "\n", but maybe the last
	gone  map[int]bool
}

func newLineCut(text string) *lineCut {
	return &lineCut{lines: strings.SplitAfter(text, "\n")}
}

func (c *lineCut) none() bool { return len(c.gone) == 0 }

// cutElements marks the lines of the elements at positions gone of block
// list l. It reports false (marking nothing) where that cannot be done: a
// flow list or JSON, a list that would be left empty, an element not laid
// out "- " first on its line.
func (c *lineCut) cutElements(l *yaml.Node, gone []int) bool {
	if l.Style&yaml.FlowStyle != 0 || len(gone) == len(l.Content) {
		return false
	}
	var marks [][2]int
	for _, j := range gone {
		first, end, ok := c.elementLines(l, j)
		if !ok {
			return false
		}
		marks = append(marks, [2]int{first, end})
	}
	if c.gone == nil {
		c.gone = map[int]bool{}
	}
	for _, m := range marks {
		for i := m[0]; i < m[1]; i++ {
			c.gone[i] = true
		}
	}
	return true
}

// elementLines is the lines (0-based, end excluded) of element j of block
// list l: from its "- " to the next line indented no deeper than the dash,
// with the comment lines directly above it at the dash's indentation. Of
// the blank lines around it, those after go with an element that has one
// after it, those before with the last.
func (c *lineCut) elementLines(l *yaml.Node, j int) (first, end int, ok bool) {
	start, dash, ok := c.dashOf(l.Content[j])
	if !ok {
		return 0, 0, false
	}
	first, end = c.commentsAbove(start, dash), c.blockEnd(start, dash)
	if j == len(l.Content)-1 {
		first, end = c.blanksBefore(first), c.blanksAfter(start, end)
	}
	return first, end, true
}

// commentsAbove is the first of the comment lines at the dash's
// indentation directly above line start.
func (c *lineCut) commentsAbove(start, dash int) int {
	for start > 0 && isComment(c.lines[start-1]) && indentOf(c.lines[start-1]) == dash {
		start--
	}
	return start
}

// blockEnd is the line after the element on line start: the next line
// indented no deeper than its dash, blank lines going with it.
func (c *lineCut) blockEnd(start, dash int) int {
	end := start + 1
	for end < len(c.lines) && (isBlank(c.lines[end]) || indentOf(c.lines[end]) > dash) {
		end++
	}
	return end
}

// blanksBefore takes the blank lines above line first with the last
// element, which has none after it to go with.
func (c *lineCut) blanksBefore(first int) int {
	for first > 0 && isBlank(c.lines[first-1]) {
		first--
	}
	return first
}

// blanksAfter leaves the blank lines that end the last element, from line
// start to end, to what follows the list.
func (c *lineCut) blanksAfter(start, end int) int {
	for end > start+1 && isBlank(c.lines[end-1]) {
		end--
	}
	return end
}

// dashOf is the line (0-based) of an element and the column of its "- ",
// which must be the first thing on the line; false for an element not
// laid out so (its content on a later line, "- - x") or read from
// elsewhere.
func (c *lineCut) dashOf(el *yaml.Node) (line, dash int, ok bool) {
	line, col := el.Line-1, el.Column-1
	if el.Line == 0 || line >= len(c.lines) || col > len(c.lines[line]) {
		return 0, 0, false
	}
	prefix := strings.TrimRight(c.lines[line][:col], " ")
	dash = len(prefix) - 1
	if dash < 0 || prefix[dash] != '-' || strings.TrimSpace(prefix[:dash]) != "" {
		return 0, 0, false
	}
	return line, dash, true
}

// text is the text without the lines marked; false when that would leave
// it without a line.
func (c *lineCut) text() (string, bool) {
	var b strings.Builder
	for i, l := range c.lines {
		if !c.gone[i] {
			b.WriteString(l)
		}
	}
	return b.String(), b.Len() > 0
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

func isComment(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "#") }

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
