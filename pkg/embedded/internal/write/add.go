package write

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// addJSON is the edit that appends entries to a JSON map or list. When
// every old entry goes (allGone), the new ones take their place.
func (w *writer) addJSON(n *span.Node, adds []plan.Append, allGone bool) Edit {
	w.d.Open(n)
	isMap := n.Kind == span.Map
	k := len(n.Children)
	if k == 0 {
		l := w.jsonLayout(nil, "")
		l.Pretty = false
		at := n.Start + 1
		return Edit{Start: at, End: at, Text: jsonEntries(isMap, l, adds, ","+l.Comma, false)}
	}
	sep, l := w.jsonSeparator(n)
	end := n.Children[k-1].End
	return Edit{Start: end, End: end, Text: jsonEntries(isMap, l, adds, ","+sep, !allGone)}
}

// jsonSeparator returns the separator that precedes the last entry of the
// JSON map or list n, which new entries copy (its line break and
// indentation, or its single space), and the layout they are written in.
func (w *writer) jsonSeparator(n *span.Node) (string, encode.JSONLayout) {
	t := w.d.Text
	k := len(n.Children)
	prev := n.Start + 1
	if k > 1 {
		prev = strings.IndexByte(t[n.Children[k-2].End:], ',') + n.Children[k-2].End + 1
	}
	sep := t[prev:entryStart(n, k-1)]
	l := w.jsonLayout(n, "")
	if k == 1 && !strings.ContainsAny(sep, "\n\r") {
		// The space after an opening bracket says nothing about the space
		// after a comma.
		sep = l.Comma
	}
	if nl := strings.LastIndexAny(sep, "\n\r"); nl >= 0 {
		l.Pretty = true
		l.Indent = sep[nl+1:]
	} else {
		l.Pretty = false
	}
	return sep, l
}

// jsonEntries writes the entries adds of a JSON map or list, each after
// sep but the first, which gets it too when sepFirst is set.
func jsonEntries(isMap bool, l encode.JSONLayout, adds []plan.Append, sep string, sepFirst bool) string {
	var b strings.Builder
	for i, a := range adds {
		if i > 0 || sepFirst {
			b.WriteString(sep)
		}
		val := a.Raw
		if val == "" {
			val = l.Render(a.Value)
		}
		if isMap {
			b.WriteString(encode.JSONQuote(a.Seg.Key) + l.Colon)
		}
		b.WriteString(val)
	}
	return b.String()
}

// addYAML is the edit that appends entries to a YAML map or list. When
// every old entry of a flow collection goes (allGone), the new ones take
// their place.
func (w *writer) addYAML(n *span.Node, adds []plan.Append, allGone bool) Edit {
	if n.Flow {
		return w.addFlowYAML(n, adds, allGone)
	}
	return w.addBlockYAML(n, adds)
}

// addFlowYAML is addYAML for a flow collection: the new entries follow the
// last one, after ", ".
func (w *writer) addFlowYAML(n *span.Node, adds []plan.Append, allGone bool) Edit {
	k := len(n.Children)
	follow := k > 0 && !allGone // old entries stay before the new ones
	text := flowEntries(w.yamlLayout(), n.Kind == span.Map, adds, follow)
	at := w.flowAddAt(n, allGone)
	if at < len(w.d.Text) && w.d.Text[at] == '#' {
		// A comment right there: a plain value would take it in.
		text += " "
	}
	if follow && emptyAfterProperties(n.Children[k-1]) {
		// After an empty value's tag ({"a": !t}): a "," right after it
		// would read as part of the tag.
		text = " " + text
	}
	return Edit{Start: at, End: at, Text: text}
}

// flowEntries writes the entries adds of a YAML flow map or list, each
// after ", " but the first, which gets it too when it follows old
// entries.
func flowEntries(l encode.YAMLLayout, isMap bool, adds []plan.Append, follow bool) string {
	var b strings.Builder
	for i, a := range adds {
		if i > 0 || follow {
			b.WriteString(", ")
		}
		if isMap {
			b.WriteString(l.Key(a.Seg.Key, true) + ": ")
		}
		b.WriteString(l.Flow(a.Value))
	}
	return b.String()
}

// emptyAfterProperties reports whether n is an empty YAML value after its
// anchor or tag ("key: !t").
func emptyAfterProperties(n *span.Node) bool {
	return n.YAMLInfo != nil && n.End == n.Start && n.PropStart < n.Start
}

// flowAddAt is where entries added to the flow collection n go.
func (w *writer) flowAddAt(n *span.Node, allGone bool) int {
	k := len(n.Children)
	switch {
	case k == 0:
		return n.Start + 1
	case allGone:
		// Where the last entry that goes ended: for a key without a value
		// ({"a" # c\n}), after the key (and its ":"), not where the parser
		// put the empty value, past the comment (which would then come
		// before the new entries, not after them as when the map is
		// emptied first).
		return w.flowEntryEnd(n, k-1)
	}
	// After the last value, also an empty one: a change may set it in the
	// same batch, and the new entries follow it.
	at := n.Children[k-1].End
	if n.Kind == span.Map && n.Keys[k-1].End > at {
		at = n.Keys[k-1].End
	}
	return at
}

// addBlockYAML is addYAML for a block collection: the new entries go on
// lines of their own after its last line.
func (w *writer) addBlockYAML(n *span.Node, adds []plan.Append) Edit {
	t := w.d.Text
	at := span.LineEnd(t, n.End)
	l := w.yamlLayout()
	l.Blocks = at < len(t)
	var b strings.Builder
	for _, a := range adds {
		b.WriteString(w.d.Newline + encode.Spaces(n.Col))
		if n.Kind == span.Map {
			b.WriteString(l.Key(a.Seg.Key, false) + ":" + l.AfterKey(a.Value, n.Col))
		} else {
			b.WriteString("-" + l.AfterDash(a.Value, n.Col))
		}
	}
	if s := lastBlockScalar(n); s != nil && at == len(t) && !strings.ContainsAny(t[s.Start+1:s.HeaderEnd], "+-") {
		// A block scalar with clip chomping ends the text, which has no
		// line break after it: its value has no final line break either,
		// and the line break before the new entries would give it one.
		// Strip chomping keeps its value as it is.
		return Edit{Start: s.Start, End: at, Text: t[s.Start:s.Start+1] + "-" + t[s.Start+1:at] + b.String()}
	}
	return Edit{Start: at, End: at, Text: b.String()}
}

// lastBlockScalar returns the literal or folded scalar the block collection
// n ends with, at any depth (nil when it ends with anything else).
func lastBlockScalar(n *span.Node) *span.Node {
	for n != nil && !n.Flow {
		if n.Kind == span.Scalar {
			if n.Style == span.Literal || n.Style == span.Folded {
				return n
			}
			return nil
		}
		if len(n.Children) == 0 {
			return nil
		}
		n = n.Children[len(n.Children)-1]
	}
	return nil
}
