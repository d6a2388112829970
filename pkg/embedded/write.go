package embedded

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

func (d *doc) wrapBuild(err error) error {
	if e, ok := err.(*Error); ok {
		return &Error{Segment: e.Segment, Msg: e.Msg + d.of()}
	}
	return err
}

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

// build makes the value created for path[from:]: the maps and lists the
// segments name, with the setter's value at the end.
func build(path fieldpath.Path, from int, set Setter) (*yaml.Node, error) {
	if from == len(path) {
		return set(nil)
	}
	seg := path[from]
	switch seg.Kind {
	case fieldpath.Field:
		child, err := build(path, from+1, set)
		if err != nil {
			return nil, err
		}
		return mapOf(seg.Key, child), nil
	case fieldpath.Index:
		if seg.Index != 0 {
			return nil, &Error{Segment: from, Msg: fmt.Sprintf("cannot create element %d of a new list (only 0)", seg.Index)}
		}
		child, err := build(path, from+1, set)
		if err != nil {
			return nil, err
		}
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{child}}, nil
	case fieldpath.Match:
		el, err := buildElement(path, from, set, span.StrTag)
		if err != nil {
			return nil, err
		}
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{el}}, nil
	}
	return nil, &Error{Segment: from, Msg: "cannot create what * stands for; name the key or element"}
}

// buildElement makes the list element [key=value] creates: a map holding
// key: value and whatever the rest of the path adds, or for [=value] the
// scalar itself.
func buildElement(path fieldpath.Path, at int, set Setter, keyTag string) (*yaml.Node, error) {
	seg := path[at]
	if at+1 == len(path) {
		return set(nil)
	}
	if seg.Key == "" {
		return nil, &Error{Segment: at + 1, Msg: fmt.Sprintf("cannot go into the scalar element that %s creates", seg)}
	}
	next := path[at+1]
	if next.Kind != fieldpath.Field {
		return nil, &Error{Segment: at + 1, Msg: fmt.Sprintf("the element %s creates is a map; %s cannot go into it", seg, next)}
	}
	if next.Key == seg.Key {
		return nil, &Error{Segment: at + 1, Msg: fmt.Sprintf("%s would overwrite the key %s matches on", next, seg)}
	}
	rest, err := build(path, at+1, set)
	if err != nil {
		return nil, err
	}
	matchValue := &yaml.Node{Kind: yaml.ScalarNode, Tag: keyTag, Value: seg.Value}
	rest.Content = append([]*yaml.Node{{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: seg.Key}, matchValue}, rest.Content...)
	return rest, nil
}

// buildElement for an existing list: the matched field takes the type its
// siblings have (a port number stays a number).
func (d *doc) buildElement(list *span.Node, path fieldpath.Path, at int, set Setter) (*yaml.Node, error) {
	seg := path[at]
	tag := span.StrTag
	for _, el := range list.Children {
		if el.Kind != span.Map {
			continue
		}
		if j, _ := d.findKey(el, seg.Key, at); j >= 0 {
			sib := el.Children[j]
			if sib.Kind == span.Scalar && sib.Tag != span.StrTag && scalarTag(sib, &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: seg.Value}) == sib.Tag {
				tag = sib.Tag
			}
			break
		}
	}
	return buildElement(path, at, set, tag)
}

func mapOf(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: key}, v,
	}}
}

// lineIndent returns the white space that starts the line holding off.
func (d *doc) lineIndent(off int) string {
	ls := d.Lines()[d.LineOf(off)]
	i := ls
	for i < len(d.Text) && (d.Text[i] == ' ' || d.Text[i] == '\t') {
		i++
	}
	return d.Text[ls:i]
}

// jsonLayout describes the JSON around container (nil: the document).
func (d *doc) jsonLayout(container *span.Node, indent string) jsonLayout {
	l := jsonLayout{indent: indent, unit: "  ", colon: ": ", comma: " ", nl: d.Newline}
	// What the whole document says is worked out once: a batch of edits
	// asks for it again and again.
	if d.layout == nil {
		d.layout = &layoutFacts{pretty: strings.ContainsAny(d.Text, "\n\r")}
		d.layoutWalk(d.Root, d.layout)
	}
	var f layoutFacts
	if container != nil {
		d.layoutWalk(container, &f)
	}
	f.fill(d.layout)
	l.pretty = d.layout.pretty
	if f.colonFound {
		l.colon = f.colon
	}
	if f.unitFound {
		l.unit = f.unit
	}
	if f.commaFound {
		l.comma = f.comma
	}
	if !f.commaFound && l.colon == ":" {
		l.comma = ""
	}
	return l
}

// layoutFacts is what the JSON text says of its own layout: the first map
// with an entry tells the colon spacing, the first collection with two
// entries on one line the spacing after commas, the first collection
// spread over lines the indentation step.
type layoutFacts struct {
	pretty                            bool // the text spans lines
	colon, comma, unit                string
	colonFound, commaFound, unitFound bool
}

func (f *layoutFacts) done() bool { return f.colonFound && f.commaFound && f.unitFound }

// fill takes what f has not found from g, found further on.
func (f *layoutFacts) fill(g *layoutFacts) {
	if !f.colonFound && g.colonFound {
		f.colon, f.colonFound = g.colon, true
	}
	if !f.commaFound && g.commaFound {
		f.comma, f.commaFound = g.comma, true
	}
	if !f.unitFound && g.unitFound {
		f.unit, f.unitFound = g.unit, true
	}
}

func (d *doc) layoutWalk(n *span.Node, f *layoutFacts) {
	if n.Kind != span.Map && n.Kind != span.Seq || f.done() {
		return
	}
	d.Open(n)
	if n.Kind == span.Map && len(n.Keys) > 0 && !f.colonFound {
		f.colon = d.Text[n.Keys[0].End:n.Children[0].Start]
		if strings.ContainsAny(f.colon, "\n\r") {
			f.colon = ": "
		}
		f.colonFound = true
	}
	if len(n.Children) > 0 && !f.unitFound {
		first := entryStart(n, 0)
		if d.LineOf(first) != d.LineOf(n.Start) {
			outer, inner := d.lineIndent(n.Start), d.lineIndent(first)
			if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
				f.unit = inner[len(outer):]
				f.unitFound = true
			}
		}
	}
	if len(n.Children) > 1 && !f.commaFound {
		gapStart := strings.IndexByte(d.Text[n.Children[0].End:], ',') + n.Children[0].End + 1
		if gap := d.Text[gapStart:entryStart(n, 1)]; !strings.ContainsAny(gap, "\n\r") {
			f.comma = gap
			f.commaFound = true
		}
	}
	for _, c := range n.Children {
		d.layoutWalk(c, f)
	}
}

func (d *doc) yamlLayout() yamlLayout {
	return yamlLayout{unit: d.Unit, seqIndented: d.SeqIndented >= 0, nl: d.Newline, quote: d.jsonish, given: d.givenStyle,
		keyQuote: d.keyQuoting()}
}

// keyQuoting is how the document quotes its keys, which new keys copy:
// span.Double or span.Single when every key is quoted so (jsonnet writes
// "key": ...), span.Plain otherwise. Worked out once per document: a batch
// writes many values.
func (d *doc) keyQuoting() span.Style {
	if d.keyQuote == nil {
		q := d.findKeyQuoting()
		d.keyQuote = &q
	}
	return *d.keyQuote
}

func (d *doc) findKeyQuoting() span.Style {
	if d.format != YAML || d.Root == nil {
		return span.Plain
	}
	seen := span.Style(0)
	found := false
	stack := []*span.Node{d.Root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, k := range n.Keys {
			if k.Kind != span.Scalar {
				continue
			}
			if k.Style != span.Single && k.Style != span.Double || found && k.Style != seen {
				return span.Plain
			}
			seen, found = k.Style, true
		}
		for _, c := range n.Children {
			if c.Kind == span.Map || c.Kind == span.Seq {
				stack = append(stack, c)
			}
		}
	}
	if !found {
		return span.Plain
	}
	return seen
}

// givenText writes a string in the quoting of the node given, under
// Options.GivenStyle, when the text allows that quoting.
func (d *doc) givenText(tag string, v *yaml.Node, inFlow bool) (string, bool) {
	if !d.givenStyle || d.jsonish || tag != span.StrTag {
		return "", false
	}
	return givenQuote(v, inFlow)
}

// givenQuote writes v's string in v's own quoting when it can hold it.
func givenQuote(v *yaml.Node, inFlow bool) (string, bool) {
	switch {
	case v.Style&yaml.DoubleQuotedStyle != 0:
		return yamlDoubleQuote(v.Value), true
	case v.Style&yaml.SingleQuotedStyle != 0:
		if !strings.ContainsAny(v.Value, "\n\r") {
			return yamlSingleQuote(v.Value)
		}
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if yamlPlainOK(v.Value, inFlow) {
			return v.Value, true
		}
	}
	return "", false
}

// jsonReadBack is the scalar a JSON parser reads from what jsonScalar wrote.
func jsonReadBack(tag, value string) *yaml.Node {
	text := value
	switch tag {
	case span.BoolTag:
		text = jsonScalar(tag, value)
	case span.NullTag:
		text = "null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// yamlReadBack is the scalar yaml.v3 reads from what yamlScalar wrote.
func yamlReadBack(tag, value, written string) *yaml.Node {
	if tag == span.NullTag {
		value = written
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// readBack is what reading a rendered new structure gives.
func readBack(f Format, v *yaml.Node) *yaml.Node {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		out := &yaml.Node{Kind: v.Kind}
		for _, c := range v.Content {
			out.Content = append(out.Content, readBack(f, c))
		}
		return out
	}
	tag := scalarTag(nil, v)
	if f == JSON {
		return jsonReadBack(tag, v.Value)
	}
	written := yamlScalar(tag, v.Value, nil, false, "\n")
	return yamlReadBack(tag, v.Value, written)
}
