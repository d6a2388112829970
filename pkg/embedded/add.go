package embedded

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// addValue is the value a change adds at p (a key of a map, an element of
// a list) and what must read back.
func (d *doc) addValue(p place, path fieldpath.Path, set Setter) (*yaml.Node, *yaml.Node, error) {
	n := p.n
	seg := path[p.at]
	if d.raw != "" && (p.at+1 != len(path) || seg.Kind == fieldpath.Match || d.format != JSON) {
		return nil, nil, d.errorf(p.at, "cannot create %s: SetText writes only the last key or element of a JSON document", path[p.at:])
	}
	if n.Kind == span.Map {
		if err := d.newKeyClash(n, seg.Key, p.at); err != nil {
			return nil, nil, err
		}
	}
	var v *yaml.Node
	var err error
	if n.Kind == span.Seq && seg.Kind == fieldpath.Match {
		v, err = d.buildElement(n, path, p.at, set)
	} else {
		v, err = build(path, p.at+1, set)
	}
	if err != nil {
		return nil, nil, d.wrapBuild(err)
	}
	return v, readBack(d.format, v), nil
}

// addJSON is the edit that appends entries to a JSON map or list. When
// every old entry goes (allGone), the new ones take their place.
func (d *doc) addJSON(n *span.Node, adds []appended, allGone bool) edit {
	d.Open(n)
	isMap := n.Kind == span.Map
	k := len(n.Children)
	if k == 0 {
		l := d.jsonLayout(nil, "")
		l.pretty = false
		at := n.Start + 1
		return edit{start: at, end: at, text: jsonEntries(isMap, l, adds, ","+l.comma, false)}
	}
	sep, l := d.jsonSeparator(n)
	end := n.Children[k-1].End
	return edit{start: end, end: end, text: jsonEntries(isMap, l, adds, ","+sep, !allGone)}
}

// jsonSeparator returns the separator that precedes the last entry of the
// JSON map or list n, which new entries copy (its line break and
// indentation, or its single space), and the layout they are written in.
func (d *doc) jsonSeparator(n *span.Node) (string, jsonLayout) {
	k := len(n.Children)
	prev := n.Start + 1
	if k > 1 {
		prev = strings.IndexByte(d.Text[n.Children[k-2].End:], ',') + n.Children[k-2].End + 1
	}
	sep := d.Text[prev:entryStart(n, k-1)]
	l := d.jsonLayout(n, "")
	if k == 1 && !strings.ContainsAny(sep, "\n\r") {
		// The space after an opening bracket says nothing about the space
		// after a comma.
		sep = l.comma
	}
	if nl := strings.LastIndexAny(sep, "\n\r"); nl >= 0 {
		l.pretty = true
		l.indent = sep[nl+1:]
	} else {
		l.pretty = false
	}
	return sep, l
}

// jsonEntries writes the entries adds of a JSON map or list, each after
// sep but the first, which gets it too when sepFirst is set.
func jsonEntries(isMap bool, l jsonLayout, adds []appended, sep string, sepFirst bool) string {
	var b strings.Builder
	for i, a := range adds {
		if i > 0 || sepFirst {
			b.WriteString(sep)
		}
		val := a.raw
		if val == "" {
			val = l.render(a.v)
		}
		if isMap {
			b.WriteString(jsonQuote(a.seg.Key) + l.colon)
		}
		b.WriteString(val)
	}
	return b.String()
}

// addYAML is the edit that appends entries to a YAML map or list. When
// every old entry of a flow collection goes (allGone), the new ones take
// their place.
func (d *doc) addYAML(n *span.Node, adds []appended, allGone bool) edit {
	if n.Flow {
		return d.addFlowYAML(n, adds, allGone)
	}
	return d.addBlockYAML(n, adds)
}

// addFlowYAML is addYAML for a flow collection: the new entries follow the
// last one, after ", ".
func (d *doc) addFlowYAML(n *span.Node, adds []appended, allGone bool) edit {
	l := d.yamlLayout()
	k := len(n.Children)
	follow := k > 0 && !allGone // old entries stay before the new ones
	var b strings.Builder
	for i, a := range adds {
		if i > 0 || follow {
			b.WriteString(", ")
		}
		if n.Kind == span.Map {
			b.WriteString(l.key(a.seg.Key, true) + ": ")
		}
		b.WriteString(l.flow(a.v))
	}
	at := d.flowAddAt(n, allGone)
	if at < len(d.Text) && d.Text[at] == '#' {
		// A comment right there: a plain value would take it in.
		b.WriteByte(' ')
	}
	text := b.String()
	if follow && emptyAfterProperties(n.Children[k-1]) {
		// After an empty value's tag ({"a": !t}): a "," right after it
		// would read as part of the tag.
		text = " " + text
	}
	return edit{start: at, end: at, text: text}
}

// emptyAfterProperties reports whether n is an empty YAML value after its
// anchor or tag ("key: !t").
func emptyAfterProperties(n *span.Node) bool {
	return n.YAMLInfo != nil && n.End == n.Start && n.PropStart < n.Start
}

// flowAddAt is where entries added to the flow collection n go.
func (d *doc) flowAddAt(n *span.Node, allGone bool) int {
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
		return d.flowEntryEnd(n, k-1)
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
func (d *doc) addBlockYAML(n *span.Node, adds []appended) edit {
	l := d.yamlLayout()
	var b strings.Builder
	for _, a := range adds {
		b.WriteString(d.Newline + spaces(n.Col))
		if n.Kind == span.Map {
			b.WriteString(l.key(a.seg.Key, false) + ":" + l.afterKey(a.v, n.Col))
		} else {
			b.WriteString("-" + l.afterDash(a.v, n.Col))
		}
	}
	at := span.LineEnd(d.Text, n.End)
	if s := lastBlockScalar(n); s != nil && at == len(d.Text) && !strings.ContainsAny(d.Text[s.Start+1:s.HeaderEnd], "+-") {
		// A block scalar with clip chomping ends the text, which has no
		// line break after it: its value has no final line break either,
		// and the line break before the new entries would give it one.
		// Strip chomping keeps its value as it is.
		return edit{start: s.Start, end: at, text: d.Text[s.Start:s.Start+1] + "-" + d.Text[s.Start+1:at] + b.String()}
	}
	return edit{start: at, end: at, text: b.String()}
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
