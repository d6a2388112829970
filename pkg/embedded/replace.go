package embedded

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// replace writes v where p.n is: SetText's JSON text as it was given, or
// v encoded for the document, by kind.
func (d *doc) replace(p place, v *yaml.Node) (edit, check, error) {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	switch {
	case d.raw != "":
		return d.replaceRaw(p.n, v)
	case v.Kind == yaml.ScalarNode:
		return d.replaceScalar(p, v)
	case d.format == JSON:
		l := d.jsonLayout(nil, d.lineIndent(p.n.Start))
		return edit{start: p.n.Start, end: p.n.End, text: l.render(v)}, check{want: readBack(JSON, v)}, nil
	}
	return d.replaceYAMLCollection(p, v)
}

// replaceRaw writes SetText's JSON text, v parsed, in place of n.
func (d *doc) replaceRaw(n *span.Node, v *yaml.Node) (edit, check, error) {
	if d.format != JSON {
		return edit{}, check{}, &Error{Msg: "SetText writes JSON text, and the document is YAML" + d.of()}
	}
	return edit{start: n.Start, end: n.End, text: d.raw}, check{want: readBack(JSON, v)}, nil
}

// replaceScalar writes the scalar v where p.n is, with the type scalarTag
// decides (or the value's own, under Options.GivenType).
func (d *doc) replaceScalar(p place, v *yaml.Node) (edit, check, error) {
	n := p.n
	if !utf8.ValidString(v.Value) {
		return edit{}, check{}, &Error{Msg: "the value written is not valid UTF-8 text" + d.of()}
	}
	tag := scalarTag(n, v)
	if d.givenType {
		tag = scalarTag(nil, v)
	}
	if d.format == JSON {
		return edit{start: n.Start, end: n.End, text: jsonScalar(tag, v.Value)}, check{want: jsonReadBack(tag, v.Value)}, nil
	}
	if n.ExplicitTag && n.Kind == span.Scalar {
		tag = n.Tag // the tag written before the value stays and decides
	}
	if n.Kind == span.Scalar && (n.End > n.Start || (n.YAMLInfo != nil && n.PropStart < n.Start)) {
		return d.rewriteYAMLScalar(n, v, tag)
	}
	return d.newYAMLScalar(p, v, tag)
}

// rewriteYAMLScalar writes a YAML scalar over one: a value in place, or an
// empty one after its anchor or tag ("key: !t"), which stay. The old
// value's style is kept when it can hold the new text.
func (d *doc) rewriteYAMLScalar(n *span.Node, v *yaml.Node, tag string) (edit, check, error) {
	text := yamlScalar(tag, v.Value, n, n.InFlow, d.Newline)
	if s, ok := d.givenText(tag, v, n.InFlow); ok {
		text = s
	}
	want := yamlReadBack(tag, v.Value, text)
	if n.End == n.Start {
		text = " " + text
	}
	return edit{start: n.Start, end: n.End, text: text}, check{want: want}, nil
}

// newYAMLScalar writes a YAML scalar where a map, a list or an empty value
// was, in the style the document (or the value given) asks for.
func (d *doc) newYAMLScalar(p place, v *yaml.Node, tag string) (edit, check, error) {
	n := p.n
	text := yamlScalar(tag, v.Value, nil, n.InFlow, d.Newline)
	if d.jsonish && tag == span.StrTag {
		text = yamlDoubleQuote(v.Value)
	} else if s, ok := d.givenText(tag, v, n.InFlow); ok {
		text = s
	}
	want := yamlReadBack(tag, v.Value, text)
	if n.InFlow {
		return edit{start: n.Start, end: n.End, text: d.spaced(n.Start, text)}, check{want: want}, nil
	}
	e, err := d.slotEdit(p, " "+text, " "+text, text)
	return e, check{want: want}, err
}

// replaceYAMLCollection writes the map or list v where p.n is: in flow
// style inside a flow collection, and in block style (or flow, as given,
// under Options.GivenStyle) elsewhere.
func (d *doc) replaceYAMLCollection(p place, v *yaml.Node) (edit, check, error) {
	n := p.n
	l := d.yamlLayout()
	want := readBack(YAML, v)
	if n.InFlow {
		return edit{start: n.Start, end: n.End, text: d.spaced(n.Start, l.flow(v))}, check{want: want}, nil
	}
	col := 0
	if p.parent != nil {
		col = p.parent.Col
	}
	root := l.flow(v)
	if len(v.Content) > 0 && !l.keepFlow(v) {
		root = l.block(v, n.Start-d.Lines()[d.LineOf(n.Start)])
	}
	e, err := d.slotEdit(p, l.afterKey(v, col), l.afterDash(v, col), root)
	return e, check{want: want}, err
}

// spaced puts a space before text inserted right after a token.
func (d *doc) spaced(at int, text string) string {
	if at > 0 && !span.IsSpace(d.Text[at-1]) && !strings.ContainsRune("[{,", rune(d.Text[at-1])) {
		return " " + text
	}
	return text
}

// slotEdit replaces a block YAML value together with the space between it
// and the ':' of its key or the '-' of its list entry, so that new block
// content starts on a line of its own: with afterKey, afterDash, or at the
// top of the document atRoot.
func (d *doc) slotEdit(p place, afterKey, afterDash, atRoot string) (edit, error) {
	switch {
	case p.key != nil:
		return d.keySlot(p, afterKey)
	case p.parent != nil && p.parent.Kind == span.Seq:
		return d.dashSlot(p, afterDash)
	}
	return edit{start: p.n.Start, end: p.n.End, text: strings.TrimPrefix(atRoot, " ")}, nil
}

// keySlot is slotEdit for the value of a map entry: text goes right after
// the ':'.
func (d *doc) keySlot(p place, text string) (edit, error) {
	t := d.Text
	i := p.key.End
	for i < len(t) && span.IsSpace(t[i]) {
		i++
	}
	if i >= len(t) || t[i] != ':' {
		return edit{}, fmt.Errorf("cannot find the ':' after the key %q", p.key.Value)
	}
	return edit{start: i + 1, end: slotEnd(p.n, i+1), text: text}, nil
}

// dashSlot is slotEdit for a list element: text goes right after the '-'.
func (d *doc) dashSlot(p place, text string) (edit, error) {
	n, t := p.n, d.Text
	i := n.Start
	if n.YAMLInfo != nil {
		i = n.PropStart // the '-' comes before an anchor or tag
	}
	for i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
		i--
	}
	if i == 0 || t[i-1] != '-' {
		return edit{}, fmt.Errorf("cannot find the '-' of a list element")
	}
	return edit{start: i, end: slotEnd(n, i), text: text}, nil
}

// slotEnd is where the edit of the slot that starts at from ends: where
// the value ends, or, for an empty value without anchor or tag, which the
// parser places at the next token, maybe past a comment, right at from, so
// that the text goes before the comment.
func slotEnd(n *span.Node, from int) int {
	if n.End == n.Start && n.PropStart == n.Start {
		return from
	}
	return n.End
}
