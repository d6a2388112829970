package embedded

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Delete removes the map entries the path leads to: its last segment names
// a key, the segments before it lead to maps (wildcards and list matchers
// allowed). Only the bytes of each entry go: in JSON and YAML flow maps the
// entry and one separator (comments between entries stay), in YAML block
// maps the entry's lines with the comment block directly above its key. A
// map left without entries is written {} (a flow map keeping its comments:
// { # why\n}). Like Set, the result is verified before it is returned.
func Delete(text string, path fieldpath.Path, opts Options) (string, error) {
	return Edit(text, opts, Change{Path: path, Delete: true})
}

// deleteEntry is the edit that removes entry idx of the map at p, one of
// the entries gone. When every entry goes and new ones follow, they start
// where the first old one started. A map losing every entry and gaining
// none is written {} instead (emptyMap).
func (d *doc) deleteEntry(p place, idx int, gone map[int]bool) (edit, error) {
	if d.format == JSON || p.n.Flow {
		return d.deleteFlowEntry(p.n, idx, gone), nil
	}
	return d.deleteBlockEntry(p.n, idx)
}

// deleteFlowEntry is deleteEntry for a JSON or flow map: the entry goes
// with the separator after it while no entry before it stays, and with the
// separator before it otherwise. Comments between the entries stay
// (gapComments).
func (d *doc) deleteFlowEntry(n *span.Node, idx int, gone map[int]bool) edit {
	first := 0
	for first < len(n.Children) && gone[first] {
		first++
	}
	if idx < first {
		return d.deleteWithNextSeparator(n, idx)
	}
	return d.deleteWithSeparatorBefore(n, idx)
}

// deleteWithNextSeparator removes flow entry idx and the separator after
// it, if another entry follows.
func (d *doc) deleteWithNextSeparator(n *span.Node, idx int) edit {
	if idx+1 == len(n.Children) {
		return edit{start: d.flowEntryStart(n, idx), end: d.flowEntryEnd(n, idx)}
	}
	e := edit{start: d.flowEntryStart(n, idx), end: d.flowEntryStart(n, idx+1)}
	if kept, ok := d.gapComments(d.flowEntryEnd(n, idx), e.end); ok {
		e.text = kept
	}
	return e
}

// deleteWithSeparatorBefore removes flow entry idx and the separator
// before it.
func (d *doc) deleteWithSeparatorBefore(n *span.Node, idx int) edit {
	e := edit{start: d.flowEntryEnd(n, idx-1), end: d.flowEntryEnd(n, idx)}
	if kept, ok := d.gapComments(e.start, d.flowEntryStart(n, idx)); ok {
		// Without the indentation of the entry that goes, nor the line
		// break before it when another follows the entry.
		kept = strings.TrimRight(kept, " \t")
		rest := strings.TrimLeft(d.Text[e.end:], " \t")
		if strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n") {
			kept = strings.TrimSuffix(strings.TrimSuffix(kept, "\n"), "\r")
		}
		e.text = kept
	}
	return e
}

// deleteBlockEntry is deleteEntry for a YAML block map: the entry's lines
// go, from the comment block above the key (or its "? ") to the line where
// the value ends.
func (d *doc) deleteBlockEntry(n *span.Node, idx int) (edit, error) {
	lines := d.Lines()
	key := n.Keys[idx]
	keyLine := d.LineOf(key.Start)
	if prefix := strings.TrimSpace(d.Text[lines[keyLine]:key.Start]); prefix != "" && prefix != "?" {
		return d.deleteAfterPrefix(n, idx)
	}
	lastLine := d.LineOf(entryEnd(n, idx))
	if idx+1 < len(n.Keys) && d.LineOf(n.Keys[idx+1].Start) <= lastLine {
		return edit{}, fmt.Errorf("cannot delete the key %q, whose value ends on the line of the next key", key.Value)
	}
	stop := len(d.Text)
	if lastLine+1 < len(lines) {
		stop = lines[lastLine+1]
	}
	return edit{start: lines[d.commentBlockStart(n, idx, keyLine)], end: stop}, nil
}

// deleteAfterPrefix deletes block map entry idx, whose key shares its line
// with a "- " or with an anchor: from the key up to the next key, which
// keeps that prefix.
func (d *doc) deleteAfterPrefix(n *span.Node, idx int) (edit, error) {
	if idx+1 < len(n.Keys) && d.LineOf(n.Keys[idx+1].Start) > d.LineOf(entryEnd(n, idx)) {
		return edit{start: n.Keys[idx].Start, end: n.Keys[idx+1].Start}, nil
	}
	return edit{}, fmt.Errorf("cannot delete the key %q, which shares its line with other text", n.Keys[idx].Value)
}

// commentBlockStart is the first line of the comment block directly above
// the key of block map entry idx, on keyLine (keyLine when there is none);
// it stays below the line where the entry before ends.
func (d *doc) commentBlockStart(n *span.Node, idx, keyLine int) int {
	lines := d.Lines()
	floor := -1
	if idx > 0 {
		floor = d.LineOf(entryEnd(n, idx-1))
	}
	first := keyLine
	for first-1 > floor && isCommentLine(d.Text, lines[first-1]) {
		first--
	}
	return first
}

// flowEntryEnd is where entry i of a flow map or list ends, past the ":"
// of a key whose value is empty ({a: }), and the value's tag or anchor
// ({a: !t }), which would otherwise stay behind.
func (d *doc) flowEntryEnd(n *span.Node, i int) int {
	end := entryEnd(n, i)
	if n.Kind != span.Map || n.Children[i].End != n.Children[i].Start {
		return end
	}
	t := d.Text
	j := spaceEnd(t, end)
	if j >= len(t) || t[j] != ':' {
		return end
	}
	colon := emptyValueEnd(t, j+1)
	j = colon
	for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
		j++ // the space before "}" or "," went with the value
	}
	if j < len(t) && t[j] == '#' {
		return colon // but a comment keeps the space before it
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

// flowEntryStart is where entry i of a flow map or list begins, with the
// tags and anchors written before its key or element ({a, !t k: 1}), which
// belong to it (fuzz finding: deleting the entry before took them).
func (d *doc) flowEntryStart(n *span.Node, i int) int {
	start := entryStart(n, i)
	for {
		j := start
		for j > 0 && span.IsSpace(d.Text[j-1]) {
			j--
		}
		k := j
		for k > 0 && !span.IsSpace(d.Text[k-1]) && !strings.ContainsRune(",[{", rune(d.Text[k-1])) {
			k--
		}
		if k == j || k < n.Start+1 || d.Text[k] != '!' && d.Text[k] != '&' {
			return start
		}
		start = k
	}
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
func (d *doc) gapComments(from, to int) (text string, found bool) {
	if d.format != YAML {
		return "", false
	}
	var b strings.Builder
	for i := from; i < to; i++ {
		switch c := d.Text[i]; {
		case c == '#':
			end := min(span.LineEnd(d.Text, i), to)
			b.WriteString(d.Text[i:end])
			i = end - 1
			found = true
		case span.IsSpace(c):
			b.WriteByte(c)
		}
	}
	return b.String(), found
}

// emptyMap is the edit that writes the map at p as {}. A YAML flow map
// keeps the comments between its entries (emptiedFlowMap).
func (d *doc) emptyMap(p place) (edit, error) {
	n := p.n
	if d.format == JSON || n.Flow {
		if text, ok := d.emptiedFlowMap(n); ok {
			return edit{start: n.Start, end: n.End, text: text}, nil
		}
		return edit{start: n.Start, end: n.End, text: "{}"}, nil
	}
	if n.Source.Anchor != "" || n.ExplicitTag {
		return edit{}, fmt.Errorf("cannot empty a map that has an anchor or a tag")
	}
	return d.slotEdit(p, " {}", " {}", "{}")
}

// emptiedFlowMap is the text of a YAML flow map that loses every entry,
// when comments lie between its entries ({"a": 1 # why\n}): the braces,
// the white space and the comments stay ({ # why\n}); the entries and the
// commas go. ok is false when there is no such comment, and the map is
// written {}.
func (d *doc) emptiedFlowMap(n *span.Node) (text string, ok bool) {
	if d.format != YAML || d.Text[n.Start] != '{' || n.CloseAt <= n.Start || d.Text[n.CloseAt] != '}' {
		return "", false
	}
	var b strings.Builder
	b.WriteByte('{')
	from := n.Start + 1
	for i := range n.Children {
		s, found := d.gapComments(from, d.flowEntryStart(n, i))
		b.WriteString(s)
		ok = ok || found
		from = d.flowEntryEnd(n, i)
	}
	s, found := d.gapComments(from, n.CloseAt)
	b.WriteString(s)
	b.WriteByte('}')
	return b.String(), ok || found
}
