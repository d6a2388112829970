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
	entry := func(l jsonLayout, a appended) string {
		val := a.raw
		if val == "" {
			val = l.render(a.v)
		}
		if isMap {
			return jsonQuote(a.seg.Key) + l.colon + val
		}
		return val
	}
	var b strings.Builder
	k := len(n.Children)
	if k == 0 {
		l := d.jsonLayout(nil, "")
		l.pretty = false
		for i, a := range adds {
			if i > 0 {
				b.WriteString("," + l.comma)
			}
			b.WriteString(entry(l, a))
		}
		return edit{start: n.Start + 1, end: n.Start + 1, text: b.String()}
	}
	// Copy the separator that precedes the last entry: its line break and
	// indentation, or its single space.
	lastStart := entryStart(n, k-1)
	prev := n.Start + 1
	if k > 1 {
		prev = strings.IndexByte(d.Text[n.Children[k-2].End:], ',') + n.Children[k-2].End + 1
	}
	sep := d.Text[prev:lastStart]
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
	for i, a := range adds {
		if i > 0 || !allGone {
			b.WriteString("," + sep)
		}
		b.WriteString(entry(l, a))
	}
	end := n.Children[k-1].End
	return edit{start: end, end: end, text: b.String()}
}

// addYAML is the edit that appends entries to a YAML map or list. When
// every old entry of a flow collection goes (allGone), the new ones take
// their place.
func (d *doc) addYAML(n *span.Node, adds []appended, allGone bool) edit {
	l := d.yamlLayout()
	isMap := n.Kind == span.Map
	var b strings.Builder
	if n.Flow {
		k := len(n.Children)
		for i, a := range adds {
			if i > 0 || (k > 0 && !allGone) {
				b.WriteString(", ")
			}
			if isMap {
				b.WriteString(l.key(a.seg.Key, true) + ": ")
			}
			b.WriteString(l.flow(a.v))
		}
		at := n.Start + 1
		switch {
		case k > 0 && allGone:
			// Where the last entry that goes ended: for a key without a
			// value ({"a" # c\n}), after the key (and its ":"), not where
			// the parser put the empty value, past the comment (which
			// would then come before the new entries, not after them as
			// when the map is emptied first).
			at = d.flowEntryEnd(n, k-1)
		case k > 0:
			// After the last value, also an empty one: a change may set
			// it in the same batch, and the new entries follow it.
			at = n.Children[k-1].End
			if isMap && n.Keys[k-1].End > at {
				at = n.Keys[k-1].End
			}
		}
		if at < len(d.Text) && d.Text[at] == '#' {
			// A comment right there: a plain value would take it in.
			b.WriteByte(' ')
		}
		text := b.String()
		if k > 0 && !allGone {
			if c := n.Children[k-1]; c.YAMLInfo != nil && c.End == c.Start && c.PropStart < c.Start {
				// After an empty value's tag ({"a": !t}): a "," right
				// after it would read as part of the tag.
				text = " " + text
			}
		}
		return edit{start: at, end: at, text: text}
	}
	at := span.LineEnd(d.Text, n.End)
	for _, a := range adds {
		b.WriteString(d.Newline + spaces(n.Col))
		if isMap {
			b.WriteString(l.key(a.seg.Key, false) + ":" + l.afterKey(a.v, n.Col))
		} else {
			b.WriteString("-" + l.afterDash(a.v, n.Col))
		}
	}
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
