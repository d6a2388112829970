package rlio

import (
	"bytes"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A ResourceList's items are placed in the bytes they were read from, so
// that an item the function did not change is written as those bytes
// (copy-through) rather than as kyaml's writer writes it.
//
// The places come from yaml.v3's positions on the nodes kyaml's reader
// returns (a ResourceList is one document, decoded whole, so its items'
// lines are lines of the input), never from scanning lines for YAML:
//   - item i starts on the line of its "-", which must be the line where
//     the parser starts the item, with only spaces before the "-" (the
//     list's indentation d) and only spaces after it;
//   - it ends where item i+1 starts; the last item ends where the parser,
//     reading the input again from the last item's line on (one item and
//     what follows it, not the whole list), starts the next key of the
//     list, and reads there an item equal to kyaml's, comments included.
//
// The span of item i thus holds its own text and the comments and blank
// lines between it and item i+1, which yaml.v3 gives item i (inside its
// tree) or item i+1 (its head comment), depending on what follows. Item
// i+1's head comment starts its own span instead when it is the lines just
// before its "-", at the items' column, where kyaml's writer writes it
// (headStart). Two items with any other comment between them are tied
// (listSource.tied): copied together, neighbours in the output as in the
// source, or neither is (copies), so that the comment is written once and
// read as it was.
//
// The writer writes the items at column 0 ("items:\n- a: 1"); a list
// indented under its key (d > 0) has every line of each copied item
// shifted left by d, which keeps every column relative to every other of
// the item (block scalars, continuation lines and comments included). A
// line that does not start with d spaces (a comment further left, a flow
// collection continued at column 0) leaves its item unplaced.
//
// FuzzListSpans holds the output to what kyaml's writer's output reads as.

// listSource is where the items of a ResourceList were read from.
type listSource struct {
	// span is each placed item's text, shifted to column 0.
	span map[*yaml.Node]itemSpan
	// tied says, by index in the source, that a comment lies between the
	// item and the one before it (its head comment, or one the span before
	// ends with), which yaml.v3 gives one or the other depending on what
	// follows: the two are copied together, in that order, or neither is.
	// One past the last item: the last item's span ends with a comment.
	tied []bool
}

// itemSpan is one item's place.
type itemSpan struct {
	index int
	text  string
}

// placeItems places the items of a ResourceList read from raw; nil when
// none can be.
func placeItems(raw []byte, items []*yaml.RNode) *listSource {
	if len(items) == 0 || bytes.IndexByte(raw, '\r') >= 0 {
		return nil
	}
	lines := lineStarts(raw)
	dashes, indent, ok := dashLines(raw, lines, items)
	if !ok {
		return nil
	}
	src := &listSource{span: make(map[*yaml.Node]itemSpan, len(items)), tied: make([]bool, len(items)+1)}
	starts := src.spanStarts(raw, lines, dashes, indent, items)
	input := string(raw) // one copy; the spans are pieces of it
	for i, it := range items {
		if starts[i] < 0 || starts[i+1] < 0 {
			continue
		}
		// a comment ending the span may be the next item's, placed or not
		src.tied[i+1] = src.tied[i+1] || endsWithComment(input[starts[i]:starts[i+1]])
		text, shifted := shiftLeft(input[starts[i]:starts[i+1]], indent)
		if !shifted || !strings.HasSuffix(text, "\n") {
			continue // at the input's end, a block scalar ends without its line break
		}
		src.span[it.YNode()] = itemSpan{index: i, text: text}
	}
	return src
}

// spanStarts is the offset in raw where each item's span starts, and
// where the last one ends; -1 where that is not known (an item whose "-"
// is not on its first line; the end of the items, see itemsEnd). It
// records in s.tied the items whose head comment lies in the span before.
func (s *listSource) spanStarts(raw []byte, lines, dashes []int, indent int, items []*yaml.RNode) []int {
	starts := make([]int, len(items)+1)
	for i, it := range items {
		starts[i] = -1
		if dashes[i] < 0 {
			continue
		}
		prev := -1
		if i > 0 {
			prev = items[i-1].YNode().Line - 1 // the item before starts on it or after its "-"
		}
		var own bool
		starts[i], own = headStart(raw, lines, dashes[i], prev, indent, it.YNode().HeadComment)
		// the first key's head comment, too, lies before the "-" line
		s.tied[i] = !own || len(it.YNode().Content) > 0 && it.YNode().Content[0].HeadComment != ""
	}
	last := len(items) - 1
	starts[last+1] = -1
	if dashes[last] >= 0 {
		if end, ok := itemsEnd(raw, lines[dashes[last]], indent, items[last].YNode()); ok {
			starts[last+1] = end
		}
	}
	return starts
}

// headStart is where the span of the item whose "-" is on line dash
// starts: the first line of its head comment, when the lines just before
// the "-" are that comment, line for line, at the items' column (after the
// "-" line of the item before, prev); else the "-" line, and own is false:
// the comment lies in the span before, tying the two items.
func headStart(raw []byte, lines []int, dash, prev, indent int, head string) (start int, own bool) {
	if head == "" {
		return lines[dash], true
	}
	want := strings.Split(head, "\n")
	first := dash - len(want)
	if first <= prev {
		return lines[dash], false
	}
	for k, w := range want {
		line := raw[lines[first+k]:lines[first+k+1]]
		if !commentAt(line, indent) || string(bytes.TrimSpace(line)) != strings.TrimSpace(w) {
			return lines[dash], false
		}
	}
	return lines[first], true
}

// commentAt reports whether line is a comment starting at column indent,
// the items' column, where kyaml's writer writes an item's head comment:
// a comment elsewhere, or a blank line in the comment, may be read as
// another node's after a changed item written before it.
func commentAt(line []byte, indent int) bool {
	return len(line) > indent && line[indent] == '#' && len(bytes.TrimLeft(line[:indent], " ")) == 0
}

// dashLines is the line (0-based) of each item's "-", -1 for an item
// whose "-" is not on its first line ("- # comment"), and the list's
// indentation; false when no item's is found, or they disagree.
func dashLines(raw []byte, lines []int, items []*yaml.RNode) (dashes []int, indent int, ok bool) {
	indent = -1
	for _, it := range items {
		n := it.YNode()
		if n.Kind != yaml.MappingNode || n.Line < 1 || n.Line > len(lines) {
			return nil, 0, false
		}
		d, found := dashColumn(raw[lines[n.Line-1]:], n.Column-1)
		switch {
		case !found:
			dashes = append(dashes, -1)
			continue
		case indent >= 0 && d != indent:
			return nil, 0, false
		}
		indent = d
		dashes = append(dashes, n.Line-1)
	}
	return dashes, indent, indent >= 0
}

// dashColumn is the column of the "-" on line when the item starts at
// column col: spaces, "-", spaces, the item.
func dashColumn(line []byte, col int) (int, bool) {
	if col < 2 || col > len(line) {
		return 0, false
	}
	k := col - 1
	for k >= 0 && line[k] == ' ' {
		k--
	}
	if k < 0 || k == col-1 || line[k] != '-' {
		return 0, false
	}
	for j := 0; j < k; j++ {
		if line[j] != ' ' {
			return 0, false
		}
	}
	return k, true
}

// itemsEnd is the offset in raw where the items end: where the parser,
// reading "items:" and the input from the last item's line (at offset
// from), starts the list's next key, or the end of raw. false when that
// reading does not find the last item as kyaml read it, or finds a
// comment it could not place (on the key after the items, or after them).
func itemsEnd(raw []byte, from, indent int, last *yaml.Node) (int, bool) {
	if bytes.Contains(raw[from:], []byte("\n...")) {
		return 0, false
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(append([]byte("items:\n"), raw[from:]...), &doc); err != nil || len(doc.Content) != 1 {
		return 0, false
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || len(top.Content) < 2 || top.Content[1].Kind != yaml.SequenceNode {
		return 0, false
	}
	seq := top.Content[1]
	want := *last
	want.HeadComment = "" // it lies before the last item's line, in the span before
	// a comment after the last item that yaml.v3 gives the list's envelope
	// is not the item's: the writers do not write it
	if commented(&doc, top, top.Content[0], seq) || len(seq.Content) != 1 || !sameNode(seq.Content[0], &want) {
		return 0, false
	}
	if len(top.Content) == 2 {
		return len(raw), true
	}
	next := top.Content[2]
	if next.HeadComment != "" || next.Line < 3 {
		return 0, false
	}
	lines := lineStarts(raw[from:])
	return from + lines[next.Line-2], true // its line in raw[from:] is its line in the reading, less "items:"
}

// endsWithComment reports whether the last line of text that is not blank
// starts with "#" (after spaces): a comment, or a line of a block scalar
// (then the item is only tied to the next one for nothing).
func endsWithComment(text string) bool {
	text = strings.TrimRight(text, " \n")
	return strings.HasPrefix(strings.TrimLeft(text[strings.LastIndexByte(text, '\n')+1:], " "), "#")
}

// commented reports whether one of the nodes holds a comment.
func commented(nodes ...*yaml.Node) bool {
	return slices.ContainsFunc(nodes, func(n *yaml.Node) bool {
		return n.HeadComment != "" || n.LineComment != "" || n.FootComment != ""
	})
}

// shiftLeft is text with indent spaces taken off every line: false when a
// line that is not blank starts with fewer. A blank line loses the spaces
// it has, up to indent.
func shiftLeft(text string, indent int) (string, bool) {
	if indent == 0 {
		return text, true // a piece of the input, not a copy
	}
	var b strings.Builder
	b.Grow(len(text))
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		k := 0
		for k < indent && k < len(line) && line[k] == ' ' {
			k++
		}
		if k < indent && len(strings.TrimRight(line, " \n")) > 0 {
			return "", false
		}
		b.WriteString(line[k:])
	}
	return b.String(), true
}

// at is the index in the source of an item placed there and unchanged,
// -1 for one not placed or changed.
func (s *listSource) at(it *yaml.RNode, unchanged func(*yaml.RNode) bool) int {
	if s == nil || unchanged == nil {
		return -1
	}
	if sp, placed := s.span[it.YNode()]; placed && unchanged(it) {
		return sp.index
	}
	return -1
}

// copiesAt is, for each item of the output, the text it is written as,
// given each item's at: its span where it is placed and unchanged, and the
// head comments around it are written once (a chain of items each holding
// the next one's head comment is copied whole, in the source's order, or
// not at all); "" where it is to be encoded.
func (s *listSource) copiesAt(items []*yaml.RNode, at []int) []string {
	out := make([]string, len(items))
	if s == nil {
		return out
	}
	for lo := 0; lo < len(items); {
		hi := lo + 1
		for hi < len(items) && at[hi-1] >= 0 && at[hi] == at[hi-1]+1 && s.tied[at[hi]] {
			hi++
		}
		if at[lo] >= 0 && !s.tied[at[lo]] && !s.tied[at[hi-1]+1] {
			for k := lo; k < hi; k++ {
				out[k] = s.span[items[k].YNode()].text
			}
		}
		lo = hi
	}
	return out
}

// Placed reports whether the item was placed in the bytes it was read
// from: only those can be copied, so only those need telling apart
// unchanged (List.Unchanged).
func (l *List) Placed(it *yaml.RNode) bool {
	if l.src == nil {
		return false
	}
	_, ok := l.src.span[it.YNode()]
	return ok
}
