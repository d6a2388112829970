package embedded

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// editAt computes the edit for one place and what must read back there.
func (d *doc) editAt(p place, path fieldpath.Path, opts Options, set Setter) (edit, check, error) {
	switch p.kind {
	case inString:
		inner := opts
		inner.Where = joinPath(opts.Where, path[:p.at])
		s, err := Set(p.n.value, path[p.at:], inner, set)
		if err != nil {
			return edit{}, check{}, shift(err, p.at)
		}
		return d.replace(p, &yaml.Node{Kind: yaml.ScalarNode, Tag: strTag, Value: s})
	case addTo:
		return d.add(p, path, set)
	case overNull:
		v, err := build(path, p.at, set)
		if err != nil {
			return edit{}, check{}, d.wrapBuild(err)
		}
		return d.replace(p, v)
	}
	v, err := set(d.toYAML(p.n))
	if err != nil {
		return edit{}, check{}, err
	}
	return d.replace(p, v)
}

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
	if v.Kind == yaml.ScalarNode {
		if !utf8.ValidString(v.Value) {
			return edit{}, check{}, &Error{Msg: fmt.Sprintf("the value %q is not valid UTF-8 text", v.Value)}
		}
		tag := scalarTag(n, v)
		if d.format == JSON {
			return edit{n.start, n.end, jsonScalar(tag, v.Value)}, check{want: jsonReadBack(tag, v.Value)}, nil
		}
		if n.explicitTag && n.kind == scalarKind {
			tag = n.tag // the tag written before the value stays and decides
		}
		if n.kind == scalarKind && n.end > n.start {
			text := yamlScalar(tag, v.Value, n, n.inFlow, d.newline)
			return edit{n.start, n.end, text}, check{want: yamlReadBack(tag, v.Value, text)}, nil
		}
		text := yamlScalar(tag, v.Value, nil, n.inFlow, d.newline)
		if d.jsonish && tag == strTag {
			text = yamlDoubleQuote(v.Value)
		}
		want := yamlReadBack(tag, v.Value, text)
		if n.inFlow {
			return edit{n.start, n.end, d.spaced(n.start, text)}, check{want: want}, nil
		}
		e, err := d.slotEdit(p, " "+text, " "+text, text)
		return e, check{want: want}, err
	}
	// A map or list.
	if d.format == JSON {
		l := d.jsonLayout(nil, d.lineIndent(n.start))
		return edit{n.start, n.end, l.render(v)}, check{want: readBack(JSON, v)}, nil
	}
	l := d.yamlLayout()
	want := readBack(YAML, v)
	if n.inFlow {
		return edit{n.start, n.end, d.spaced(n.start, l.flow(v))}, check{want: want}, nil
	}
	col := 0
	if p.parent != nil {
		col = p.parent.col
	}
	root := l.flow(v)
	if len(v.Content) > 0 {
		root = l.block(v, n.start-d.lines[d.lineOf(n.start)])
	}
	e, err := d.slotEdit(p, l.afterKey(v, col), l.afterDash(v, col), root)
	return e, check{want: want}, err
}

// spaced puts a space before text inserted right after a token.
func (d *doc) spaced(at int, text string) string {
	if at > 0 && !isYAMLSpace(d.text[at-1]) && !strings.ContainsRune("[{,", rune(d.text[at-1])) {
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
	t := d.text
	switch {
	case p.key != nil:
		i := p.key.end
		for i < len(t) && isYAMLSpace(t[i]) {
			i++
		}
		if i >= len(t) || t[i] != ':' {
			return edit{}, fmt.Errorf("cannot find the ':' after the key %q", p.key.value)
		}
		end := n.end
		if n.end == n.start {
			end = i + 1
		}
		return edit{i + 1, end, afterKey}, nil
	case p.parent != nil && p.parent.kind == seqKind:
		i := n.start
		for i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
			i--
		}
		if i == 0 || t[i-1] != '-' {
			return edit{}, fmt.Errorf("cannot find the '-' of a list element")
		}
		end := n.end
		if n.end == n.start {
			end = i
		}
		return edit{i, end, afterDash}, nil
	}
	return edit{n.start, n.end, strings.TrimPrefix(atRoot, " ")}, nil
}

// add appends a key to a map or an element to a list.
func (d *doc) add(p place, path fieldpath.Path, set Setter) (edit, check, error) {
	n := p.n
	seg := path[p.at]
	var v *yaml.Node
	var err error
	switch {
	case n.kind == mapKind:
		v, err = build(path, p.at+1, set)
	case seg.Kind == fieldpath.Match:
		v, err = d.buildElement(n, path, p.at, set)
	default:
		v, err = build(path, p.at+1, set)
	}
	if err != nil {
		return edit{}, check{}, d.wrapBuild(err)
	}
	c := check{want: readBack(d.format, v), appended: true}
	if n.kind == mapKind {
		c.key = seg.Key
	}
	if d.format == JSON {
		return d.addJSON(n, seg.Key, v), c, nil
	}
	return d.addYAML(n, seg.Key, v), c, nil
}

func (d *doc) addJSON(n *node, key string, v *yaml.Node) edit {
	d.open(n)
	isMap := n.kind == mapKind
	entry := func(l jsonLayout) string {
		if isMap {
			return jsonQuote(key) + l.colon + l.render(v)
		}
		return l.render(v)
	}
	k := len(n.children)
	if k == 0 {
		l := d.jsonLayout(nil, "")
		l.pretty = false
		return edit{n.start + 1, n.start + 1, entry(l)}
	}
	// Copy the separator that precedes the last entry: its line break and
	// indentation, or its single space.
	lastStart := n.children[k-1].start
	if isMap {
		lastStart = n.keys[k-1].start
	}
	prev := n.start + 1
	if k > 1 {
		prev = strings.IndexByte(d.text[n.children[k-2].end:], ',') + n.children[k-2].end + 1
	}
	sep := d.text[prev:lastStart]
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
	return edit{n.children[k-1].end, n.children[k-1].end, "," + sep + entry(l)}
}

func (d *doc) addYAML(n *node, key string, v *yaml.Node) edit {
	l := d.yamlLayout()
	isMap := n.kind == mapKind
	if n.flow {
		entry := l.flow(v)
		if isMap {
			entry = l.key(key, true) + ": " + entry
		}
		k := len(n.children)
		if k == 0 {
			return edit{n.start + 1, n.start + 1, entry}
		}
		at := n.children[k-1].end
		if isMap && n.keys[k-1].end > at {
			at = n.keys[k-1].end
		}
		return edit{at, at, ", " + entry}
	}
	at := lineEnd(d.text, n.end)
	var entry string
	if isMap {
		entry = l.key(key, false) + ":" + l.afterKey(v, n.col)
	} else {
		entry = "-" + l.afterDash(v, n.col)
	}
	return edit{at, at, d.newline + spaces(n.col) + entry}
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
		el, err := buildElement(path, from, set, strTag)
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
	rest.Content = append([]*yaml.Node{{Kind: yaml.ScalarNode, Tag: strTag, Value: seg.Key}, matchValue}, rest.Content...)
	return rest, nil
}

// buildElement for an existing list: the matched field takes the type its
// siblings have (a port number stays a number).
func (d *doc) buildElement(list *node, path fieldpath.Path, at int, set Setter) (*yaml.Node, error) {
	seg := path[at]
	tag := strTag
	for _, el := range list.children {
		if el.kind != mapKind {
			continue
		}
		if j, _ := d.findKey(el, seg.Key, at); j >= 0 {
			sib := el.children[j]
			if sib.kind == scalarKind && sib.tag != strTag && scalarTag(sib, &yaml.Node{Kind: yaml.ScalarNode, Tag: strTag, Value: seg.Value}) == sib.tag {
				tag = sib.tag
			}
			break
		}
	}
	return buildElement(path, at, set, tag)
}

func mapOf(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: strTag, Value: key}, v,
	}}
}

// lineIndent returns the white space that starts the line holding off.
func (d *doc) lineIndent(off int) string {
	ls := d.lineTable()[d.lineOf(off)]
	i := ls
	for i < len(d.text) && (d.text[i] == ' ' || d.text[i] == '\t') {
		i++
	}
	return d.text[ls:i]
}

// jsonLayout describes the JSON around container (nil: the document).
func (d *doc) jsonLayout(container *node, indent string) jsonLayout {
	l := jsonLayout{indent: indent, unit: "  ", colon: ": ", comma: " ", nl: d.newline}
	l.pretty = strings.ContainsAny(d.text, "\n\r")
	// The first map with an entry tells the colon spacing, the first
	// collection with two entries the spacing after commas, the first
	// pretty collection the indentation step.
	var colonFound, commaFound, unitFound bool
	var walk func(n *node)
	walk = func(n *node) {
		if n.kind != mapKind && n.kind != seqKind || (colonFound && commaFound && unitFound) {
			return
		}
		d.open(n)
		if n.kind == mapKind && len(n.keys) > 0 && !colonFound {
			l.colon = d.text[n.keys[0].end:n.children[0].start]
			if strings.ContainsAny(l.colon, "\n\r") {
				l.colon = ": "
			}
			colonFound = true
		}
		if len(n.children) > 0 && !unitFound {
			first := n.children[0].start
			if n.kind == mapKind {
				first = n.keys[0].start
			}
			if d.lineOf(first) != d.lineOf(n.start) {
				outer, inner := d.lineIndent(n.start), d.lineIndent(first)
				if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
					l.unit = inner[len(outer):]
					unitFound = true
				}
			}
		}
		if len(n.children) > 1 && !commaFound {
			gapStart := strings.IndexByte(d.text[n.children[0].end:], ',') + n.children[0].end + 1
			next := n.children[1].start
			if n.kind == mapKind {
				next = n.keys[1].start
			}
			if gap := d.text[gapStart:next]; !strings.ContainsAny(gap, "\n\r") {
				l.comma = gap
				commaFound = true
			}
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	if container != nil {
		walk(container)
	}
	walk(d.root)
	if !commaFound && l.colon == ":" {
		l.comma = ""
	}
	return l
}

func (d *doc) yamlLayout() yamlLayout {
	return yamlLayout{unit: d.unit, seqIndented: d.seqIndented >= 0, nl: d.newline, quote: d.jsonish}
}

// jsonReadBack is the scalar a JSON parser reads from what jsonScalar wrote.
func jsonReadBack(tag, value string) *yaml.Node {
	text := value
	switch tag {
	case boolTag:
		text = jsonScalar(tag, value)
	case nullTag:
		text = "null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// yamlReadBack is the scalar yaml.v3 reads from what yamlScalar wrote.
func yamlReadBack(tag, value, written string) *yaml.Node {
	if tag == nullTag {
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
