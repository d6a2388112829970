package write

import (
	"fmt"
	"sort"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// A block list's elements own the lines they span and the comments that
// belong to them; deleting elements takes exactly those, and leaves every
// other element's comments where they are. Between two elements the lines
// are, in order:
//
//   - the foot of the first: comment lines indented deeper than the dashes
//     right after its last line (a setting commented out: "# insecure: true");
//   - loose lines: blank lines, and comment paragraphs no element owns;
//   - the head of the second: the comment lines directly above its dash,
//     indented as deep as the dash or deeper (not those of the foot).
//
// An element deleted goes with its head and foot, and with the blank lines
// after it, so that the blank line before it still parts its neighbours;
// a list's last element, which has none after it, takes those before it.

// elementLines is where an element of a block list is, by line (0-based).
type elementLines struct {
	dash      int  // offset of its "-"
	dashLine  int  // line of its "-"
	last      int  // last line of its value
	alone     bool // the "-" starts its line (no "- " of an outer list before it)
	head, end int  // first line of its head comment; line after its foot
}

// deleteBlockElements is the edits that remove the elements gone of block
// list n: one edit per run of lines that go.
func (w *writer) deleteBlockElements(n *span.Node, gone map[int]bool) ([]Edit, error) {
	els, err := w.elementsOf(n)
	if err != nil {
		return nil, err
	}
	trailing := len(els)
	for trailing > 0 && gone[trailing-1] {
		trailing--
	}
	var runs [][2]int // byte ranges
	for i := range els {
		if !gone[i] {
			continue
		}
		r, err := w.elementRange(els, i, trailing, gone)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	return mergeRanges(runs), nil
}

// elementsOf locates every element of block list n, with the comments each
// owns.
func (w *writer) elementsOf(n *span.Node) ([]elementLines, error) {
	els := make([]elementLines, len(n.Children))
	for i, c := range n.Children {
		dash, ok := w.dashOf(c)
		if !ok {
			return nil, fmt.Errorf("cannot find the '-' of element %d", i)
		}
		dl := w.d.LineOf(dash)
		last := dl
		if c.End > c.Start || c.PropStart < c.Start {
			last = max(w.d.LineOf(c.End), dl)
		}
		ls := w.d.Lines()[dl]
		els[i] = elementLines{dash: dash, dashLine: dl, last: last, alone: blankEnd(w.d.Text, ls) == dash}
	}
	for i := range els {
		w.ownComments(els, i, n.Col)
	}
	return els, nil
}

// dashOf is the offset of the "-" of list element c: before its anchor or
// tag, across white space and line breaks.
func (w *writer) dashOf(c *span.Node) (int, bool) {
	t := w.d.Text
	i := c.Start
	if c.YAMLInfo != nil {
		i = c.PropStart
	}
	for i > 0 && span.IsSpace(t[i-1]) {
		i--
	}
	if i == 0 || t[i-1] != '-' {
		return 0, false
	}
	return i - 1, true
}

// ownComments sets the head and the end (past the foot) of element i of a
// block list whose dashes are at column col.
func (w *writer) ownComments(els []elementLines, i, col int) {
	e := &els[i]
	floor := -1 // the last line before the head that is not its
	if i > 0 {
		floor = els[i-1].last
	}
	e.head = e.dashLine
	for e.head-1 > floor && w.commentAt(e.head-1, col, false) {
		e.head--
	}
	if i > 0 && e.head == floor+1 {
		// Right below the element before: what is indented deeper is its
		// foot.
		for e.head < e.dashLine && w.commentAt(e.head, col, true) {
			e.head++
		}
	}
	stop := len(w.d.Lines())
	if i+1 < len(els) {
		stop = els[i+1].dashLine
	}
	e.end = e.last + 1
	for e.end < stop && w.commentAt(e.end, col, true) {
		e.end++
	}
}

// commentAt reports whether line l holds only a comment indented as deep
// as col (deeper, with deeper).
func (w *writer) commentAt(l, col int, deeper bool) bool {
	ls := w.d.Lines()[l]
	if !isCommentLine(w.d.Text, ls) {
		return false
	}
	indent := blankEnd(w.d.Text, ls) - ls
	if deeper {
		return indent > col
	}
	return indent >= col
}

// elementRange is the byte range deleting element i takes: its lines, its
// head and foot, and blank lines (after it; before it for the first of the
// elements that end the list, from trailing on, all gone). An element that
// shares its first line with an outer list's "- " goes from its "-" to the
// next element's.
func (w *writer) elementRange(els []elementLines, i, trailing int, gone map[int]bool) ([2]int, error) {
	e := els[i]
	if !e.alone {
		return w.sharedLineRange(els, i, gone)
	}
	first, end := e.head, e.end
	if i+1 < len(els) {
		for end < els[i+1].head && w.blankLine(end) {
			end++
		}
	}
	if i == trailing {
		for first > 0 && first-1 > els[max(i-1, 0)].last && w.blankLine(first-1) {
			first--
		}
	}
	return [2]int{w.lineStart(first), w.lineStart(end)}, nil
}

// sharedLineRange is elementRange for element i, whose "-" follows an
// outer list's ("- - a"): from its "-" to that of the next element that
// stays, which takes its place, when nothing lies between them but blank
// lines and elements that go too.
func (w *writer) sharedLineRange(els []elementLines, i int, gone map[int]bool) ([2]int, error) {
	j := i + 1
	for j < len(els) && gone[j] {
		j++
	}
	if j == len(els) || els[j].head != els[j].dashLine || !w.onlyGoneBetween(els, i, j) {
		return [2]int{}, fmt.Errorf("cannot delete element %d, which shares its line with other text", i)
	}
	return [2]int{els[i].dash, els[j].dash}, nil
}

// onlyGoneBetween reports whether the lines after element i, up to the
// dash of element j, are blank or those of the elements between, which go.
func (w *writer) onlyGoneBetween(els []elementLines, i, j int) bool {
	l := els[i].end
	for k := i + 1; k <= j; k++ {
		for ; l < els[k].head; l++ {
			if !w.blankLine(l) {
				return false
			}
		}
		l = max(l, els[k].end)
	}
	return true
}

// blankLine reports whether line l holds nothing but white space.
func (w *writer) blankLine(l int) bool {
	ls := w.d.Lines()[l]
	return blankEnd(w.d.Text, ls) == span.LineEnd(w.d.Text, ls)
}

// lineStart is the offset where line l starts, the text's end past its
// last line.
func (w *writer) lineStart(l int) int {
	lines := w.d.Lines()
	if l >= len(lines) {
		return len(w.d.Text)
	}
	return lines[l]
}

// mergeRanges makes one edit of each run of byte ranges that overlap or
// touch.
func mergeRanges(runs [][2]int) []Edit {
	sort.Slice(runs, func(i, j int) bool { return runs[i][0] < runs[j][0] })
	var out []Edit
	for _, r := range runs {
		if k := len(out); k > 0 && r[0] <= out[k-1].End {
			out[k-1].End = max(out[k-1].End, r[1])
			continue
		}
		out = append(out, Edit{Start: r[0], End: r[1]})
	}
	return out
}
