package write

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// deleteEntry is the edit that removes entry idx of the map, or of the
// JSON or flow list, at p, one of the entries gone. When every entry goes
// and new ones follow, they start where the first old one started. A
// collection losing every entry and gaining none is written {} or []
// instead (emptyCollection); a YAML block list's elements go together
// (deleteBlockElements).
func (w *writer) deleteEntry(p locate.Place, idx int, gone map[int]bool) (Edit, error) {
	if w.d.Format == span.JSON || p.N.Flow {
		return w.deleteFlowEntry(p.N, idx, gone), nil
	}
	return w.deleteBlockEntry(p.N, idx)
}

// deleteFlowEntry is deleteEntry for a JSON or flow collection: the entry goes
// with the separator after it while no entry before it stays, and with the
// separator before it otherwise. Comments between the entries stay
// (gapComments).
func (w *writer) deleteFlowEntry(n *span.Node, idx int, gone map[int]bool) Edit {
	first := 0
	for first < len(n.Children) && gone[first] {
		first++
	}
	if idx < first {
		return w.deleteWithNextSeparator(n, idx)
	}
	return w.deleteWithSeparatorBefore(n, idx)
}

// deleteWithNextSeparator removes flow entry idx and the separator after
// it, if another entry follows.
func (w *writer) deleteWithNextSeparator(n *span.Node, idx int) Edit {
	if idx+1 == len(n.Children) {
		return Edit{Start: w.flowEntryStart(n, idx), End: w.flowEntryEnd(n, idx)}
	}
	e := Edit{Start: w.flowEntryStart(n, idx), End: w.flowEntryStart(n, idx+1)}
	if kept, ok := w.gapComments(w.flowEntryEnd(n, idx), e.End); ok {
		e.Text = kept
	}
	return e
}

// deleteWithSeparatorBefore removes flow entry idx and the separator
// before it.
func (w *writer) deleteWithSeparatorBefore(n *span.Node, idx int) Edit {
	e := Edit{Start: w.flowEntryEnd(n, idx-1), End: w.flowEntryEnd(n, idx)}
	if kept, ok := w.gapComments(e.Start, w.flowEntryStart(n, idx)); ok {
		// Without the indentation of the entry that goes, nor the line
		// break before it when another follows the entry.
		kept = strings.TrimRight(kept, " \t")
		rest := strings.TrimLeft(w.d.Text[e.End:], " \t")
		if strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n") {
			kept = strings.TrimSuffix(strings.TrimSuffix(kept, "\n"), "\r")
		}
		e.Text = kept
	}
	return e
}

// deleteBlockEntry is deleteEntry for a YAML block map: the entry's lines
// go, from the comment block above the key (or its "? ") to the line where
// the value ends.
func (w *writer) deleteBlockEntry(n *span.Node, idx int) (Edit, error) {
	lines := w.d.Lines()
	key := n.Keys[idx]
	keyLine := w.d.LineOf(key.Start)
	if prefix := strings.TrimSpace(w.d.Text[lines[keyLine]:key.Start]); prefix != "" && prefix != "?" {
		return w.deleteAfterPrefix(n, idx)
	}
	lastLine := w.d.LineOf(entryEnd(n, idx))
	if idx+1 < len(n.Keys) && w.d.LineOf(n.Keys[idx+1].Start) <= lastLine {
		return Edit{}, fmt.Errorf("cannot delete %s, whose value ends on the line of the next key", w.d.KeyName(key.Value))
	}
	stop := len(w.d.Text)
	if lastLine+1 < len(lines) {
		stop = lines[lastLine+1]
	}
	return Edit{Start: lines[w.commentBlockStart(n, idx, keyLine)], End: stop}, nil
}

// deleteAfterPrefix deletes block map entry idx, whose key shares its line
// with a "- " or with an anchor: from the key up to the next key, which
// keeps that prefix.
func (w *writer) deleteAfterPrefix(n *span.Node, idx int) (Edit, error) {
	if idx+1 < len(n.Keys) && w.d.LineOf(n.Keys[idx+1].Start) > w.d.LineOf(entryEnd(n, idx)) {
		return Edit{Start: n.Keys[idx].Start, End: n.Keys[idx+1].Start}, nil
	}
	return Edit{}, fmt.Errorf("cannot delete %s, which shares its line with other text", w.d.KeyName(n.Keys[idx].Value))
}

// commentBlockStart is the first line of the comment block directly above
// the key of block map entry idx, on keyLine (keyLine when there is none);
// it stays below the line where the entry before ends.
func (w *writer) commentBlockStart(n *span.Node, idx, keyLine int) int {
	lines := w.d.Lines()
	floor := -1
	if idx > 0 {
		floor = w.d.LineOf(entryEnd(n, idx-1))
	}
	first := keyLine
	for first-1 > floor && isCommentLine(w.d.Text, lines[first-1]) {
		first--
	}
	return first
}

// flowEntryEnd is where entry i of a flow map or list ends, past the ":"
// of a key whose value is empty ({a: }), and the value's tag or anchor
// ({a: !t }), which would otherwise stay behind.
func (w *writer) flowEntryEnd(n *span.Node, i int) int {
	end := entryEnd(n, i)
	if n.Kind != span.Map || n.Children[i].End != n.Children[i].Start {
		return end
	}
	t := w.d.Text
	j := spaceEnd(t, end)
	if j >= len(t) || t[j] != ':' {
		return end
	}
	return afterEmptyValue(t, j+1)
}

// afterEmptyValue is where an empty flow value ends, from i right after
// its ":": past its tags and anchors, and past the space after them, which
// went with the value, unless a comment follows and keeps it.
func afterEmptyValue(t string, i int) int {
	end := emptyValueEnd(t, i)
	j := blankEnd(t, end) // the space before "}" or "," went with the value
	if j < len(t) && t[j] == '#' {
		return end // but a comment keeps the space before it
	}
	return j
}

// emptyValueEnd moves past the tags and anchors of an empty flow value
// ({a: !t }), which are the entry's, from i, right after its ":".
func emptyValueEnd(t string, i int) int {
	for {
		k := spaceEnd(t, i)
		if k >= len(t) || t[k] != '!' && t[k] != '&' {
			return i
		}
		for k < len(t) && !span.IsSpace(t[k]) && !strings.ContainsRune(",]}", rune(t[k])) {
			k++
		}
		i = k
	}
}

// spaceEnd moves past white space and line breaks.
func spaceEnd(t string, i int) int {
	for i < len(t) && span.IsSpace(t[i]) {
		i++
	}
	return i
}

// blankEnd moves past spaces and tabs.
func blankEnd(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// blankStart moves back over the spaces and tabs before i.
func blankStart(t string, i int) int {
	for i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
		i--
	}
	return i
}

// flowEntryStart is where entry i of a flow map or list begins, with the
// tags and anchors written before its key or element ({a, !t k: 1}), which
// belong to it (fuzz finding: deleting the entry before took them).
func (w *writer) flowEntryStart(n *span.Node, i int) int {
	start := entryStart(n, i)
	for {
		k, ok := w.propertyBefore(start, n.Start+1)
		if !ok {
			return start
		}
		start = k
	}
}

// propertyBefore is where the tag or anchor before at (across white
// space) starts, when there is one, starting at floor or later.
func (w *writer) propertyBefore(at, floor int) (int, bool) {
	t := w.d.Text
	j := at
	for j > 0 && span.IsSpace(t[j-1]) {
		j--
	}
	k := j
	for k > 0 && !span.IsSpace(t[k-1]) && !strings.ContainsRune(",[{", rune(t[k-1])) {
		k--
	}
	if k == j || k < floor || t[k] != '!' && t[k] != '&' {
		return 0, false
	}
	return k, true
}

// isCommentLine reports whether the line starting at ls holds only a
// comment.
func isCommentLine(t string, ls int) bool {
	return strings.HasPrefix(strings.TrimLeft(t[ls:span.LineEnd(t, ls)], " \t"), "#")
}

// entryStart is where entry i of a map or list begins: its key, or the
// element.
func entryStart(n *span.Node, i int) int {
	if n.Kind == span.Map {
		return n.Keys[i].Start
	}
	return n.Children[i].Start
}

// entryEnd is where entry i of a map or list ends: its value, or its key
// when the value is empty.
func entryEnd(n *span.Node, i int) int {
	end := n.Children[i].End
	if n.Kind == span.Map && (n.Keys[i].End > end || n.Children[i].End == n.Children[i].Start) {
		end = n.Keys[i].End
	}
	return end
}

// gapComments copies, from the text between two entries of a YAML flow
// collection (white space, a comma, maybe the "?" or ":" of an empty key,
// and comments), the white space and the comments. found says whether
// there was a comment: a comment is the user's, and deleting an entry takes
// only the entry and its separator (the package comment of Delete), never
// the comments around them.
func (w *writer) gapComments(from, to int) (text string, found bool) {
	if w.d.Format != span.YAML {
		return "", false
	}
	var b strings.Builder
	for i := from; i < to; i++ {
		switch c := w.d.Text[i]; {
		case c == '#':
			end := min(span.LineEnd(w.d.Text, i), to)
			b.WriteString(w.d.Text[i:end])
			i = end - 1
			found = true
		case span.IsSpace(c):
			b.WriteByte(c)
		}
	}
	return b.String(), found
}

// emptyCollection is the edit that writes the map at p as {}, the list
// as []. A YAML flow collection keeps the comments between its entries
// (emptiedFlow).
func (w *writer) emptyCollection(p locate.Place) (Edit, error) {
	n := p.N
	open, closer := "{", "}"
	if n.Kind == span.Seq {
		open, closer = "[", "]"
	}
	if w.d.Format == span.JSON || n.Flow {
		if text, ok := w.emptiedFlow(n, open, closer); ok {
			return Edit{Start: n.Start, End: n.End, Text: text}, nil
		}
		return Edit{Start: n.Start, End: n.End, Text: open + closer}, nil
	}
	if n.HasProperties() {
		return Edit{}, fmt.Errorf("cannot empty a %s that has an anchor or a tag", n.Kind)
	}
	return w.slotEdit(p, " "+open+closer, " "+open+closer, open+closer)
}

// emptiedFlow is the text of a YAML flow collection, between brackets
// open and closer, that loses every entry, when comments lie between its
// entries ({"a": 1 # why\n}): the brackets, the white space and the
// comments stay ({ # why\n}); the entries and the commas go. ok is false
// when there is no such comment, and the collection is written {} or [].
func (w *writer) emptiedFlow(n *span.Node, open, closer string) (text string, ok bool) {
	t := w.d.Text
	if w.d.Format != span.YAML || t[n.Start] != open[0] || n.CloseAt <= n.Start || t[n.CloseAt] != closer[0] {
		return "", false
	}
	var b strings.Builder
	b.WriteString(open)
	from := n.Start + 1
	for i := range n.Children {
		s, found := w.gapComments(from, w.flowEntryStart(n, i))
		b.WriteString(s)
		ok = ok || found
		from = w.flowEntryEnd(n, i)
	}
	s, found := w.gapComments(from, n.CloseAt)
	b.WriteString(s)
	b.WriteString(closer)
	return b.String(), ok || found
}
