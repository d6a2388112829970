package valuemerge

import (
	"strconv"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// diffList compares two lists. Where the wanted list keeps elements of the
// document's (a merge by key merges into them), those are edited where
// they are, the ones it dropped are deleted with the comments they own
// (package embedded's Delete of an element), and new ones are appended; a
// list whose kept elements moved, or that gains elements before them, is
// written whole. A list that keeps none (a list replaced, as RFC 7386
// replaces lists) is edited element by element (diffPositions). It reports
// false when the list is to be written whole.
func (w *writer) diffList(path fieldpath.Path, a, b *yaml.Node) (bool, error) {
	pos, tracked := w.align(a, b)
	switch {
	case !tracked:
		return w.diffPositions(path, a, b)
	case pos == nil:
		return false, nil
	}
	gone := dropped(a, pos)
	w.deleteElements(path, gone)
	return true, w.diffAligned(path, a, b, pos, len(a.Content)-len(gone))
}

// diffAligned edits the elements of a that b keeps (pos, from align)
// where they are (paths name them as the text has them: the elements
// deleted in the same batch do not move them), and appends b's new ones
// to the size elements left.
func (w *writer) diffAligned(path fieldpath.Path, a, b *yaml.Node, pos []int, size int) error {
	for i, j := range pos {
		if j < 0 {
			if err := w.appendElement(path, a, size, b.Content[i], false); err != nil {
				return err
			}
			size++
			continue
		}
		if err := w.diff(appendIndex(path, j), a.Content[j], b.Content[i]); err != nil {
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

// diffPositions edits a list replaced whole, element by element: a list
// that does not shrink has its elements edited and the rest appended; one
// that keeps some of the old values, in order, loses the others; one that
// shrinks otherwise has its first elements edited and the rest deleted. A
// list left empty is written whole (false).
func (w *writer) diffPositions(path fieldpath.Path, a, b *yaml.Node) (bool, error) {
	if len(b.Content) == 0 {
		return false, nil
	}
	if len(b.Content) < len(a.Content) {
		if gone, ok := subsequence(a, b); ok {
			w.deleteElements(path, gone)
			return true, nil
		}
	}
	n := min(len(a.Content), len(b.Content))
	for i := range n {
		if err := w.diff(appendIndex(path, i), a.Content[i], b.Content[i]); err != nil {
			return true, err
		}
	}
	w.deleteElements(path, countFrom(n, len(a.Content)))
	for i := n; i < len(b.Content); i++ {
		if err := w.appendElement(path, a, i, b.Content[i], w.flowOver(a, b)); err != nil {
			return true, err
		}
	}
	return true, nil
}

// subsequence matches b's elements, in order, with equal elements of a,
// each with the first it can: the positions of a's elements left over,
// and false when b's elements are not all matched so.
func subsequence(a, b *yaml.Node) ([]int, bool) {
	var gone []int
	i := 0
	for j, e := range a.Content {
		if i < len(b.Content) && sameData(yamltree.Resolve(e), yamltree.Resolve(b.Content[i])) {
			i++
			continue
		}
		gone = append(gone, j)
	}
	return gone, i == len(b.Content)
}

// countFrom is the numbers from i up to, not including, end.
func countFrom(i, end int) []int {
	out := make([]int, 0, max(end-i, 0))
	for ; i < end; i++ {
		out = append(out, i)
	}
	return out
}

// deleteElements deletes the elements at positions gone of the list at
// path, each with the comments it owns, and notes them for the paths of
// the elements appended after the batch (afterDeletes).
func (w *writer) deleteElements(path fieldpath.Path, gone []int) {
	if len(gone) == 0 {
		return
	}
	for _, j := range gone {
		w.changes = append(w.changes, embedded.Change{Path: appendIndex(path, j), Delete: true})
	}
	if w.gone == nil {
		w.gone = map[string][]int{}
	}
	w.gone[path.String()] = gone
}

// afterDeletes is path, which names places as the text has them, in the
// text the batch leaves: an element after others deleted from its list
// has moved up.
func (w *writer) afterDeletes(path fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, len(path))
	copy(out, path)
	for i, s := range path {
		if s.Kind != fieldpath.Index {
			continue
		}
		n := 0
		for _, j := range w.gone[path[:i].String()] {
			if j < s.Index {
				n++
			}
		}
		out[i] = fieldpath.Segment{Kind: fieldpath.Index, Index: s.Index - n, Key: strconv.Itoa(s.Index - n)}
	}
	return out
}

// appendElement adds v as element i, the first past the end of the list
// a at path once the elements before it are written: in block style, when
// flow says its list was given in flow style over a block one (hosted).
func (w *writer) appendElement(path fieldpath.Path, a *yaml.Node, i int, v *yaml.Node, flow bool) error {
	at := appendIndex(path, i)
	if err := w.newKeys(at, v); err != nil {
		return err
	}
	c := w.set(at, w.hosted(a, v, flow), true)
	c.Path = appendIndex(w.afterDeletes(path), i)
	w.appends = append(w.appends, c)
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

func appendIndex(path fieldpath.Path, i int) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Index, Index: i, Key: strconv.Itoa(i)})
}
