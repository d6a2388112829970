package write

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// replace writes v where p.N is: SetText's JSON text raw as it was given
// (the plan allows it only in JSON), or v encoded for the document, by
// kind.
func (w *writer) replace(p locate.Place, v *yaml.Node, raw string) (Edit, Check, error) {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	n := p.N
	switch {
	case raw != "":
		return Edit{Start: n.Start, End: n.End, Text: raw}, Check{Want: encode.ReadBack(span.JSON, v)}, nil
	case v.Kind == yaml.ScalarNode:
		return w.replaceScalar(p, v)
	case w.d.Format == span.JSON:
		l := w.jsonLayout(nil, w.lineIndent(n.Start))
		return Edit{Start: n.Start, End: n.End, Text: l.Render(v)}, Check{Want: encode.ReadBack(span.JSON, v)}, nil
	}
	return w.replaceYAMLCollection(p, v)
}

// replaceScalar writes the scalar v where p.N is, with the type
// scalartype.At decides (or the value's own, under Options.GivenType).
func (w *writer) replaceScalar(p locate.Place, v *yaml.Node) (Edit, Check, error) {
	n := p.N
	tag := w.scalarTag(n, v)
	if w.d.Format == span.JSON {
		return Edit{Start: n.Start, End: n.End, Text: encode.JSONScalar(tag, v.Value)}, Check{Want: encode.JSONReadBack(tag, v.Value)}, nil
	}
	if n.ExplicitTag && n.Kind == span.Scalar {
		tag = n.Tag // the tag written before the value stays and decides
	}
	if n.Kind == span.Scalar && (n.End > n.Start || emptyAfterProperties(n)) {
		e, c := w.rewriteYAMLScalar(n, v, tag)
		return e, c, nil
	}
	return w.newYAMLScalar(p, v, tag)
}

// scalarTag is the type the scalar v takes where n is: what scalartype.At
// decides, or the value's own under Options.GivenType.
func (w *writer) scalarTag(n *span.Node, v *yaml.Node) string {
	if w.opts.GivenType {
		return scalartype.At(nil, v)
	}
	return scalartype.At(n, v)
}

// rewriteYAMLScalar writes a YAML scalar over one: a value in place, or an
// empty one after its anchor or tag ("key: !t"), which stay. The old
// value's style is kept when it can hold the new text.
func (w *writer) rewriteYAMLScalar(n *span.Node, v *yaml.Node, tag string) (Edit, Check) {
	text := encode.YAMLScalar(tag, v.Value, n, n.InFlow, w.d.Newline)
	if s, ok := w.linesBlock(n, tag, v.Value); ok {
		text = s
	}
	if s, ok := w.givenText(tag, v, n.InFlow); ok {
		text = s
	}
	want := encode.YAMLReadBack(tag, v.Value, text)
	if n.End == n.Start {
		text = " " + text
	}
	return Edit{Start: n.Start, End: n.End, Text: text}, Check{Want: want}
}

// linesBlock writes a string of several lines over a plain or 'single'
// value, which cannot hold its line breaks, as a literal block, as YAML
// encoders write one, rather than double-quoted with each break "\n";
// only where the value ends its line.
func (w *writer) linesBlock(n *span.Node, tag, value string) (string, bool) {
	if tag != span.StrTag || w.d.Jsonish || n.InFlow || n.YAMLInfo == nil || n.ParentIndent < 0 ||
		(n.Style != span.Plain && n.Style != span.Single) || !strings.Contains(value, "\n") || !w.endsLine(n.End) {
		return "", false
	}
	return encode.NewBlockScalar(value, n.ParentIndent, w.d.Unit, w.d.Newline)
}

// endsLine reports whether nothing but blanks follows offset at on its
// line, and a line break ends it.
func (w *writer) endsLine(at int) bool {
	t := w.d.Text
	end := span.LineEnd(t, at)
	return end < len(t) && strings.TrimSpace(t[at:end]) == ""
}

// newYAMLScalar writes a YAML scalar where a map, a list or an empty value
// was, in the style the document (or the value given) asks for.
func (w *writer) newYAMLScalar(p locate.Place, v *yaml.Node, tag string) (Edit, Check, error) {
	n := p.N
	text := w.yamlLayout().NewScalar(tag, v, n.InFlow)
	want := encode.YAMLReadBack(tag, v.Value, text)
	if n.InFlow {
		return Edit{Start: n.Start, End: n.End, Text: w.spaced(n.Start, text)}, Check{Want: want}, nil
	}
	e, err := w.slotEdit(p, " "+text, " "+text, text)
	return e, Check{Want: want}, err
}

// givenText writes a string in the quoting of the node given, under
// Options.GivenStyle, when the text allows that quoting.
func (w *writer) givenText(tag string, v *yaml.Node, inFlow bool) (string, bool) {
	if !w.opts.GivenStyle || w.d.Jsonish || tag != span.StrTag {
		return "", false
	}
	return encode.GivenQuote(v, inFlow)
}

// replaceYAMLCollection writes the map or list v where p.N is: in flow
// style inside a flow collection, and in block style (or flow, as given,
// under Options.GivenStyle) elsewhere.
func (w *writer) replaceYAMLCollection(p locate.Place, v *yaml.Node) (Edit, Check, error) {
	n := p.N
	l := w.yamlLayout()
	l.Blocks = w.endsLine(n.End)
	want := encode.ReadBack(span.YAML, v)
	if n.InFlow {
		return Edit{Start: n.Start, End: n.End, Text: w.spaced(n.Start, l.Flow(v))}, Check{Want: want}, nil
	}
	col := 0
	if p.Parent != nil {
		col = p.Parent.Col
	}
	root := l.Flow(v)
	if len(v.Content) > 0 && !l.KeepFlow(v) {
		root = l.Block(v, n.Start-w.d.Lines()[w.d.LineOf(n.Start)])
	}
	e, err := w.slotEdit(p, l.AfterKey(v, col), l.AfterDash(v, col), root)
	return e, Check{Want: want}, err
}

// spaced puts a space before text inserted right after a token.
func (w *writer) spaced(at int, text string) string {
	t := w.d.Text
	if at > 0 && !span.IsSpace(t[at-1]) && !strings.ContainsRune("[{,", rune(t[at-1])) {
		return " " + text
	}
	return text
}

// slotEdit replaces a block YAML value together with the space between it
// and the ':' of its key or the '-' of its list entry, so that new block
// content starts on a line of its own: with afterKey, afterDash, or at the
// top of the document atRoot.
func (w *writer) slotEdit(p locate.Place, afterKey, afterDash, atRoot string) (Edit, error) {
	switch {
	case p.Key != nil:
		return w.keySlot(p, afterKey)
	case p.Parent != nil && p.Parent.Kind == span.Seq:
		return w.dashSlot(p, afterDash)
	}
	return Edit{Start: p.N.Start, End: p.N.End, Text: strings.TrimPrefix(atRoot, " ")}, nil
}

// keySlot is slotEdit for the value of a map entry: text goes right after
// the ':'.
func (w *writer) keySlot(p locate.Place, text string) (Edit, error) {
	t := w.d.Text
	i := p.Key.End
	for i < len(t) && span.IsSpace(t[i]) {
		i++
	}
	if i >= len(t) || t[i] != ':' {
		return Edit{}, fmt.Errorf("cannot find the ':' after %s", w.d.KeyName(p.Key.Value))
	}
	return Edit{Start: i + 1, End: slotEnd(p.N, i+1), Text: text}, nil
}

// dashSlot is slotEdit for a list element: text goes right after the '-'.
func (w *writer) dashSlot(p locate.Place, text string) (Edit, error) {
	n, t := p.N, w.d.Text
	i := n.Start
	if n.YAMLInfo != nil {
		i = n.PropStart // the '-' comes before an anchor or tag
	}
	i = blankStart(t, i)
	if i == 0 || t[i-1] != '-' {
		return Edit{}, fmt.Errorf("cannot find the '-' of a list element")
	}
	return Edit{Start: i, End: slotEnd(n, i), Text: text}, nil
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
