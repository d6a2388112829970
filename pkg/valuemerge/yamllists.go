package valuemerge

import (
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	yaml "go.yaml.in/yaml/v3"
)

// Keyed lists in YAML are merged in place where the edits are plain: each
// overlay element names its own base element (no two share key values),
// elements merge into theirs through the batch, new ones are appended one
// by one, and removed ones take their lines with them (in a block list).
// Anything else is written from the merged nodes (ymerger.merge reports
// false), and every result is checked against the reference merge.

// mergeList merges the overlay's list pl into the base's block or flow list
// bl, at path, by the key fields.
func (m *ymerger) mergeList(path fieldpath.Path, steps []jsonpatch.Step, bl, pl *yaml.Node, fields []string) (bool, error) {
	if !distinctKeys(pl, fields) {
		return false, nil
	}
	gone := map[int]bool{}
	for _, pe := range pl.Content {
		if vals, del := elementKeys(pe, fields); del {
			for j, e := range bl.Content {
				if hasKeys(e, fields, vals) {
					gone[j] = true
				}
			}
		}
	}
	if len(gone) > 0 && (bl.Style&yaml.FlowStyle != 0 || len(gone) == len(bl.Content)) {
		return false, nil // a flow list, or one left empty: written whole
	}
	for j := range gone {
		if !m.markLines(bl, j) {
			return false, nil
		}
	}
	// where base element j is once the removed ones are gone
	at := func(j int) int {
		n := j
		for k := range gone {
			if k < j {
				n--
			}
		}
		return n
	}
	size := len(bl.Content) - len(gone)
	for i, pe := range pl.Content {
		vals, del := elementKeys(pe, fields)
		if del {
			continue
		}
		pe := withoutDirective(pe)
		j := slices.IndexFunc(bl.Content, func(e *yaml.Node) bool { return hasKeys(e, fields, vals) })
		if j < 0 {
			v := m.keyed.mergeNode(nil, pe, elementStep(steps, pe, i))
			m.appends = append(m.appends, embedded.Change{Path: appendIndex(path, size), Create: true,
				Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }})
			size++
			continue
		}
		if ok, err := m.merge(appendIndex(path, at(j)), elementStep(steps, bl.Content[j], i), bl.Content[j], pe); err != nil || !ok {
			return ok, err
		}
	}
	return true, nil
}

// markLines marks the lines of element j of block list bl as gone: the
// lines from its "- " to the next line indented no deeper than the dash,
// with the comment lines directly above it at the dash's indentation. Of
// the blank lines around it, those after go with an element that has one
// after it, those before with the last. It reports false where the element
// is not laid out so (its content on a later line, "- - x").
func (m *ymerger) markLines(bl *yaml.Node, j int) bool {
	lines := m.b.lines
	el := bl.Content[j]
	start, col := el.Line-1, el.Column-1
	if start < 0 || start >= len(lines) || col > len(lines[start]) {
		return false
	}
	prefix := strings.TrimRight(lines[start][:col], " ")
	dash := len(prefix) - 1
	if dash < 0 || prefix[dash] != '-' || strings.TrimSpace(prefix[:dash]) != "" {
		return false
	}
	first := start
	for first > 0 && isComment(lines[first-1]) && indentOf(lines[first-1]) == dash {
		first--
	}
	end := start + 1
	for end < len(lines) && (isBlank(lines[end]) || indentOf(lines[end]) > dash) {
		end++
	}
	if j == len(bl.Content)-1 {
		for end > start+1 && isBlank(lines[end-1]) {
			end--
		}
		for first > 0 && isBlank(lines[first-1]) {
			first--
		}
	}
	if m.gone == nil {
		m.gone = map[int]bool{}
	}
	for i := first; i < end; i++ {
		m.gone[i] = true
	}
	return true
}

// removeLines is the base text without the lines marked gone; false when
// that would leave it without a line.
func (m *ymerger) removeLines() (string, bool) {
	if len(m.gone) == 0 {
		return m.b.src, true
	}
	var b strings.Builder
	for i, l := range m.b.lines {
		if !m.gone[i] {
			b.WriteString(l)
		}
	}
	return b.String(), b.Len() > 0
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

func isComment(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "#") }

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

func appendIndex(path fieldpath.Path, i int) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Index, Index: i})
}
