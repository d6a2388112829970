package entry

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

// line is one result of explain: true, at a field; a list's line is
// written once every change is seen.
type line struct {
	field, msg string
	list       *listLine
}

// explainLines says what changed, a line per place (treediff.Change): a
// scalar's old and new value (spec.replicas: 1 → 3), a field added or
// removed, and for a list that gained or lost elements one line naming
// them, with the number of its elements merged (whose own changes have
// their lines). A change inside a document held in a string is told at the
// string, with the path inside the document. secret: no value is told.
func explainLines(changes []treediff.Change, secret bool) []line {
	lists := map[string]*listLine{}
	var out []line
	for _, c := range changes {
		for _, l := range elementsOf(c, lists) {
			out = append(out, line{field: l.field, list: l})
		}
		if !isElement(c) || c.Op == treediff.Changed {
			out = append(out, changeLine(c, secret))
		}
	}
	for i, l := range out {
		if l.list != nil {
			out[i].msg = l.list.inside + l.list.String()
		}
	}
	return out
}

// listLine is what happened to the elements of one list: field is where
// its line goes, inside the words before its message (for a list inside a
// document held in a string, the path in the document).
type listLine struct {
	field, inside  string
	added, removed []string
	merged         map[string]bool
}

func (l *listLine) String() string {
	var parts []string
	if n := len(l.added); n > 0 {
		parts = append(parts, fmt.Sprintf("%s added (%s)", fnrun.Plural(n, "element"), some(l.added)))
	}
	if n := len(l.removed); n > 0 {
		parts = append(parts, fmt.Sprintf("%s removed (%s)", fnrun.Plural(n, "element"), some(l.removed)))
	}
	if n := len(l.merged); n > 0 {
		parts = append(parts, fmt.Sprintf("%d merged", n))
	}
	return strings.Join(parts, ", ")
}

// some lists up to five labels, "and N more".
func some(labels []string) string {
	if len(labels) <= most {
		return strings.Join(labels, ", ")
	}
	return strings.Join(labels[:most], ", ") + fmt.Sprintf(", and %d more", len(labels)-most)
}

// elementsOf records in lists what change c says of the lists it is in:
// an element added or removed, elements merged (kept, changed inside).
// It returns the lists whose first element added or removed c is: their
// line goes here.
func elementsOf(c treediff.Change, lists map[string]*listLine) []*listLine {
	var first []*listLine
	for k, seg := range c.Path {
		if seg.Kind != fieldpath.Index {
			continue
		}
		l := listOf(c, k, lists)
		label := strings.TrimPrefix(c.WhereTo(k+1), c.WhereTo(k))
		switch {
		case k < len(c.Path)-1 || c.Op == treediff.Changed:
			l.merged[label] = true
			continue
		case c.Op == treediff.Added:
			l.added = append(l.added, label)
		default:
			l.removed = append(l.removed, label)
		}
		if len(l.added)+len(l.removed) == 1 {
			first = append(first, l)
		}
	}
	return first
}

// listOf is the line of the list Path[:k] of c leads to.
func listOf(c treediff.Change, k int, lists map[string]*listLine) *listLine {
	where := c.WhereTo(k)
	if l := lists[where]; l != nil {
		return l
	}
	l := &listLine{field: where, merged: map[string]bool{}}
	if c.Doc > 0 && k >= c.Doc {
		l.field = c.WhereTo(c.Doc)
		l.inside = "in the document"
		if in := strings.TrimPrefix(strings.TrimPrefix(where, l.field), "."); in != "" {
			l.inside += ": " + in
		}
		l.inside += ": "
	}
	lists[where] = l
	return l
}

// isElement reports whether a change is at a list element.
func isElement(c treediff.Change) bool {
	return len(c.Path) > 0 && c.Path[len(c.Path)-1].Kind == fieldpath.Index
}

// changeLine tells one change at its place.
func changeLine(c treediff.Change, secret bool) line {
	field, inside := c.Inside()
	msg := what(c, secret)
	if c.Doc > 0 {
		at := "the document"
		if inside != "" {
			at += ": " + inside
		}
		msg = "in " + at + ": " + msg
	}
	return line{field: field, msg: msg}
}

// what says what happened at a place.
func what(c treediff.Change, secret bool) string {
	root := len(c.Path) == 0
	switch {
	case c.Op == treediff.Added && root:
		return "created"
	case c.Op == treediff.Removed && root:
		return "deleted"
	case secret:
		return c.Op.String()
	case c.Op == treediff.Added:
		return "added: " + show(c.New)
	case c.Op == treediff.Removed:
		return "removed (was " + show(c.Old) + ")"
	}
	return show(c.Old) + " → " + show(c.New)
}

// longest is the longest value shown whole.
const longest = 60

// show says a value: a scalar as it reads (3, true, null, "a string"), a
// short list of scalars as a flow list, a map or a long list by its size.
func show(v *yaml.Node) string {
	switch {
	case v == nil:
		return "nothing"
	case v.Kind == yaml.MappingNode && len(v.Content) == 0:
		return "an empty map"
	case v.Kind == yaml.MappingNode:
		return "a map of " + fnrun.Plural(len(v.Content)/2, "field")
	case v.Kind == yaml.SequenceNode:
		return showList(v)
	case v.ShortTag() == yaml.NodeTagString:
		return showString(v.Value)
	}
	return v.Value
}

// showString shows a string quoted, cut to 60 characters; one of several
// lines by their number.
func showString(s string) string {
	if body := strings.TrimSuffix(s, "\n"); strings.Contains(body, "\n") {
		return "a string of " + fnrun.Plural(strings.Count(body, "\n")+1, "line")
	}
	if r := []rune(s); len(r) > longest {
		return strconv.Quote(string(r[:longest]) + "…")
	}
	return strconv.Quote(s)
}

// showList shows a short list of scalars as a flow list, any other list
// by its length.
func showList(v *yaml.Node) string {
	parts := make([]string, 0, len(v.Content))
	size := 0
	for _, el := range v.Content {
		if el.Kind != yaml.ScalarNode {
			size = longest + 1
			break
		}
		s := show(el)
		size += len(s) + 2
		parts = append(parts, s)
	}
	if size > longest {
		return "a list of " + fnrun.Plural(len(v.Content), "element")
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
