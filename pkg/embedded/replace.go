package embedded

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// replace writes v where p.n is.
func (d *doc) replace(p place, v *yaml.Node) (edit, check, error) {
	n := p.n
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if d.raw != "" {
		if d.format != JSON {
			return edit{}, check{}, &Error{Msg: "SetText writes JSON text, and the document is YAML" + d.of()}
		}
		return edit{start: n.Start, end: n.End, text: d.raw}, check{want: readBack(JSON, v)}, nil
	}
	if v.Kind == yaml.ScalarNode {
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
			// a value in place, or an empty one after its anchor or tag
			// ("key: !t"), which stay
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
	// A map or list.
	if d.format == JSON {
		l := d.jsonLayout(nil, d.lineIndent(n.Start))
		return edit{start: n.Start, end: n.End, text: l.render(v)}, check{want: readBack(JSON, v)}, nil
	}
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
// content starts on a line of its own. An empty value (key:) gets the text
// right after the ':', before any comment.
func (d *doc) slotEdit(p place, afterKey, afterDash, atRoot string) (edit, error) {
	n := p.n
	t := d.Text
	switch {
	case p.key != nil:
		i := p.key.End
		for i < len(t) && span.IsSpace(t[i]) {
			i++
		}
		if i >= len(t) || t[i] != ':' {
			return edit{}, fmt.Errorf("cannot find the ':' after the key %q", p.key.Value)
		}
		end := n.End
		if n.End == n.Start && n.PropStart == n.Start {
			end = i + 1
		}
		return edit{start: i + 1, end: end, text: afterKey}, nil
	case p.parent != nil && p.parent.Kind == span.Seq:
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
		end := n.End
		if n.End == n.Start && n.PropStart == n.Start {
			end = i
		}
		return edit{start: i, end: end, text: afterDash}, nil
	}
	return edit{start: n.Start, end: n.End, text: strings.TrimPrefix(atRoot, " ")}, nil
}
