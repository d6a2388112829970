package valuemerge

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// YAML is merged twice over: on the node tree (the meaning, RFC 7386), and
// as line edits on the base text (the layout). A block mapping is edited
// in place: a changed scalar is replaced within its line, a replaced value
// rewrites its entry's lines, a deleted key takes its lines and its head
// comment with it, new keys are inserted after the mapping's last entry.
// Where the text cannot be edited that way (flow style, a key sharing its
// line with a "- ", a mapping left empty), the enclosing entry is written
// anew from the merged nodes; at the top, the whole document.

type ydoc struct {
	src   string
	lines []string // each with its "\n", except maybe the last
	root  *yaml.Node
	doc   *yaml.Node
}

func parseYAML(s, which string) (*ydoc, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	if off := invalidUTF8(s); off >= 0 {
		// yaml.v3 would read UTF-16 here; ConfigMap data is UTF-8.
		line, col := lineCol(s, off)
		return nil, &ParseError{Which: which, Format: YAML, Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(which, err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "it holds more than one document"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(which, err)
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	if n := emptySecondaryTag(&doc); n != nil {
		// yaml.v3 reads !%21 as the tag "!!" but writes "!!" back as
		// something else: the merge could not write the value.
		return nil, &ParseError{Which: which, Format: YAML, Line: n.Line, Column: n.Column, Msg: "the tag !! names no type"}
	}
	// Decoding into a value catches what the node parser lets through
	// (duplicate keys, bad aliases).
	var v any
	if err := doc.Decode(&v); err != nil {
		return nil, yamlError(which, err)
	}
	return &ydoc{src: s, lines: strings.SplitAfter(s, "\n"), root: doc.Content[0], doc: &doc}, nil
}

// emptySecondaryTag returns the first node tagged "!!", if any.
func emptySecondaryTag(n *yaml.Node) *yaml.Node {
	if n.Tag == "!!" {
		return n
	}
	for _, c := range n.Content {
		if t := emptySecondaryTag(c); t != nil {
			return t
		}
	}
	return nil
}

func yamlError(which string, err error) error {
	pe := &ParseError{Which: which, Format: YAML, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if n, e := fmt.Sscanf(pe.Msg, "line %d:", &pe.Line); n == 1 && e == nil {
		pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
	}
	return pe
}

// yedit replaces lines [from, to] (1-based, inclusive) with text; to =
// from-1 inserts before line from. depth orders insertions at one place:
// deeper first, so that what a nested mapping gains comes before what its
// parent gains.
type yedit struct {
	from, to int
	text     string
	depth    int
}

type ystyle struct {
	unit    int
	compact bool // sequences in mappings start at the key's column
}

type ymerger struct {
	d     *ydoc
	st    ystyle
	edits []yedit
}

func mergeYAML(base, overlay string) (string, error) {
	o, err := parseYAML(overlay, "overlay")
	if err != nil {
		return "", err
	}
	if r := resolve(o.root); isNull(r) {
		return "", &ParseError{Which: "overlay", Format: YAML, Msg: "the value is null; a null overlay would delete everything"}
	}
	if strings.TrimSpace(base) == "" {
		return mergeYAML(overlay, overlay)
	}
	b, err := parseYAML(base, "base")
	if err != nil {
		return "", err
	}
	want, err := referenceMerge(b.doc, o.doc)
	if err != nil {
		return "", err
	}
	m := &ymerger{d: b, st: detectYAMLStyle(b.root, o.root)}
	patch := resolve(o.root)
	var out string
	// The line editor counts lines by "\n"; YAML also breaks lines at
	// "\r", NEL, LS and PS, so text with those is written from nodes.
	if isMap(b.root) && isMap(patch) && !strings.ContainsAny(base, "\r\u0085\u2028\u2029") {
		if m.mapping(b.root, patch, len(b.lines)+1, 0) {
			out = m.apply()
			if ok, err := yamlMeans(out, want); err != nil || !ok {
				// The line edits went wrong somewhere: write the merged
				// nodes instead, which keeps order and comments but not
				// blank lines.
				out = ""
			}
		}
		if out == "" {
			b, _ = parseYAML(base, "base") // mapping may have merged part of it
		}
	}
	if out == "" {
		if out, err = m.nodeMerge(b, o); err != nil {
			return "", err
		}
		if ok, err := yamlMeans(out, want); err != nil || !ok {
			return "", fmt.Errorf("internal error merging YAML (please report): the result does not parse back to the merge")
		}
	}
	if !strings.HasSuffix(base, "\n") {
		out = strings.TrimSuffix(out, "\n")
	}
	return out, nil
}

// nodeMerge merges on nodes and writes the whole document.
func (m *ymerger) nodeMerge(b, o *ydoc) (string, error) {
	patch := resolve(o.root)
	doc := b.doc
	if !isMap(b.root) || !isMap(patch) {
		// Nothing of the base survives: the overlay's document (and its
		// comments), less its null members.
		c := *o.doc
		doc = &c
	}
	doc.Content = []*yaml.Node{mergeNode(b.root, patch)}
	nullKeys(doc)
	return m.encode(doc)
}

// nullKeys spells empty nulls ("key:", "{0}") "null", keys and values
// alike: the encoder would write ”, an empty string.
func nullKeys(n *yaml.Node) {
	if isNull(n) && n.Value == "" {
		n.Value, n.Tag, n.Style = "null", "!!null", 0
	}
	for _, c := range n.Content {
		nullKeys(c)
	}
}

func isMap(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// mapping merges patch into the block mapping bm, whose entries must end
// before line limit, recording line edits. It returns false when the text
// cannot be edited in place; bm has then been merged as nodes, and the
// caller writes it anew.
func (m *ymerger) mapping(bm, patch *yaml.Node, limit, depth int) bool {
	if bm.Style&yaml.FlowStyle != 0 || len(bm.Content) == 0 {
		mergeNode(bm, patch)
		return false
	}
	n := len(bm.Content) / 2
	type entry struct {
		key, val        *yaml.Node
		head, end, next int
	}
	es := make([]entry, n)
	for i := 0; i < n; i++ {
		k := bm.Content[2*i]
		if k.Kind != yaml.ScalarNode || strings.TrimSpace(m.prefix(k)) != "" {
			mergeNode(bm, patch)
			return false
		}
		es[i] = entry{key: k, val: bm.Content[2*i+1], head: m.headStart(k, 0)}
		if i > 0 {
			es[i].head = m.headStart(k, es[i-1].key.Line)
		}
	}
	for i := range es {
		es[i].next = limit
		if i+1 < n {
			es[i].next = es[i+1].head
		}
		es[i].end = m.ownedEnd(es[i].key, es[i].next)
	}
	edits := len(m.edits)
	fail := func() bool {
		m.edits = m.edits[:edits]
		mergeNode(bm, patch)
		return false
	}
	// The last occurrence of a key in the patch wins, as in JSON.
	last := map[string]int{}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		last[keyID(patch.Content[i])] = i
	}
	deleted := map[int]bool{}
	var added []*yaml.Node
	for i := 0; i+1 < len(patch.Content); i += 2 {
		pk, pv := patch.Content[i], patch.Content[i+1]
		if last[keyID(pk)] != i {
			continue
		}
		idx := -1
		for j, e := range es {
			if keyID(e.key) == keyID(pk) {
				idx = j
			}
		}
		if idx < 0 {
			if !isNull(pv) {
				added = append(added, cleanKey(pk), stripNulls(pv))
			}
			continue
		}
		e := &es[idx]
		switch {
		case isNull(pv):
			deleted[idx] = true
			m.edits = append(m.edits, yedit{from: e.head, to: e.end, depth: depth})
		case isMap(e.val) && isMap(pv) && e.val.Style&yaml.FlowStyle == 0 && len(e.val.Content) > 0:
			if !m.mapping(e.val, pv, e.end+1, depth+1) {
				if !m.replaceEntry(e.key, e.val, e.end, depth) {
					return fail()
				}
			}
		default:
			nv := mergeNode(copyNode(e.val), pv)
			if nodeEqual(e.val, nv) {
				continue
			}
			if !m.replaceValue(e.key, e.val, nv, e.end, depth) {
				return fail()
			}
			e.val = nv
			bm.Content[2*idx+1] = nv
		}
	}
	if len(deleted) == n && len(added) == 0 {
		return fail() // an empty mapping must be written "{}"
	}
	if len(added) > 0 {
		text, err := m.renderEntries(added, strings.Repeat(" ", es[0].key.Column-1))
		if err != nil {
			return fail()
		}
		m.edits = append(m.edits, yedit{from: es[n-1].end + 1, to: es[n-1].end, text: text, depth: depth})
	}
	var content []*yaml.Node
	for i, e := range es {
		if !deleted[i] {
			content = append(content, e.key, e.val)
		}
	}
	bm.Content = append(content, added...)
	return true
}

// prefix is the text before node n on its line.
func (m *ymerger) prefix(n *yaml.Node) string {
	line := strings.TrimSuffix(m.d.lines[n.Line-1], "\n")
	return line[:byteCol(line, n.Column)]
}

// byteCol turns a 1-based column in characters into a byte offset.
func byteCol(line string, col int) int {
	i := 0
	for off := range line {
		if i == col-1 {
			return off
		}
		i++
	}
	return len(line)
}

func indentOf(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

func isComment(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "#")
}

// headStart is the first line of the comment block directly above key
// (no blank line between), not going above line floor.
func (m *ymerger) headStart(key *yaml.Node, floor int) int {
	l := key.Line
	for l-1 > floor && isComment(m.d.lines[l-2]) {
		l--
	}
	return l
}

// ownedEnd is the last line of key's entry before line next: the last
// line that is neither blank nor a comment at (or left of) the key's
// column. Lines indented deeper, comments included, are inside the value.
func (m *ymerger) ownedEnd(key *yaml.Node, next int) int {
	col := key.Column - 1
	for l := next - 1; l > key.Line; l-- {
		line := m.d.lines[l-1]
		if strings.TrimSpace(line) == "" {
			continue
		}
		if isComment(line) && indentOf(line) <= col {
			continue
		}
		return l
	}
	return key.Line
}

// replaceValue records the edit for key's value becoming nv. A plain or
// quoted scalar on the key's line, replaced by a one-line scalar, is
// replaced within the line, keeping the rest of it (a comment); anything
// else rewrites the entry.
func (m *ymerger) replaceValue(key, old, nv *yaml.Node, end, depth int) bool {
	if end == key.Line && old.Kind == yaml.ScalarNode && nv.Kind == yaml.ScalarNode && old.Line == key.Line &&
		old.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 && old.Anchor == "" && !explicitTag(old) {
		text, err := m.renderScalar(nv)
		if err == nil && !strings.Contains(text, "\n") {
			raw := m.d.lines[key.Line-1]
			nl := ""
			if strings.HasSuffix(raw, "\n") {
				raw, nl = raw[:len(raw)-1], "\n"
			}
			start := byteCol(raw, old.Column)
			stop := len(strings.TrimRight(raw, " \t\r"))
			for _, c := range []string{old.LineComment, key.LineComment} {
				if c != "" {
					if i := strings.LastIndex(raw, c); i >= start {
						stop = len(strings.TrimRight(raw[:i], " \t"))
					}
				}
			}
			if stop >= start {
				m.edits = append(m.edits, yedit{from: key.Line, to: key.Line, text: raw[:start] + text + raw[stop:] + nl, depth: depth})
				return true
			}
		}
	}
	return m.replaceEntry(key, nv, end, depth)
}

func explicitTag(n *yaml.Node) bool {
	return n.Tag != "" && n.Tag != n.ShortTag() && !strings.HasPrefix(n.Tag, "!!") || n.Style&yaml.TaggedStyle != 0
}

// replaceEntry rewrites the lines of key's entry, from the key to end,
// with the entry written from nodes. The head comment above stays.
func (m *ymerger) replaceEntry(key, val *yaml.Node, end, depth int) bool {
	k := *key
	k.HeadComment, k.FootComment = "", ""
	pre := m.prefix(key)
	text, err := m.renderEntries([]*yaml.Node{&k, val}, pre)
	if err != nil {
		return false
	}
	m.edits = append(m.edits, yedit{from: key.Line, to: end, text: text, depth: depth})
	return true
}

// renderEntries writes mapping entries indented by indent.
func (m *ymerger) renderEntries(kv []*yaml.Node, indent string) (string, error) {
	out, err := m.encode(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: kv})
	if err != nil {
		return "", err
	}
	lines := strings.SplitAfter(out, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l == "" {
			continue
		}
		b.WriteString(indent)
		b.WriteString(l)
	}
	return b.String(), nil
}

func (m *ymerger) renderScalar(n *yaml.Node) (string, error) {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	out, err := m.encode(&c)
	return strings.TrimSuffix(out, "\n"), err
}

func (m *ymerger) encode(n *yaml.Node) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(m.st.unit)
	if m.st.compact {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// apply writes the base text with the edits.
func (m *ymerger) apply() string {
	es := m.edits
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].from != es[j].from {
			return es[i].from < es[j].from
		}
		ii, ij := es[i].to < es[i].from, es[j].to < es[j].from
		if ii != ij {
			return ii // insertions first
		}
		return es[i].depth > es[j].depth
	})
	lines := m.d.lines
	// An insertion after a last line without "\n" needs one.
	if n := len(lines); n > 0 && !strings.HasSuffix(lines[n-1], "\n") {
		for _, e := range es {
			if e.from > n {
				lines = append(append([]string{}, lines[:n-1]...), lines[n-1]+"\n")
				break
			}
		}
	}
	var b strings.Builder
	pos := 1
	for _, e := range es {
		for ; pos < e.from && pos <= len(lines); pos++ {
			b.WriteString(lines[pos-1])
		}
		b.WriteString(e.text)
		if e.to+1 > pos {
			pos = e.to + 1
		}
	}
	for ; pos <= len(lines); pos++ {
		b.WriteString(lines[pos-1])
	}
	return b.String()
}

func detectYAMLStyle(roots ...*yaml.Node) ystyle {
	st := ystyle{}
	seqKnown := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			if n.Style&yaml.FlowStyle != 0 {
				return
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Style&yaml.FlowStyle == 0 && v.Line > k.Line {
					if st.unit == 0 && v.Kind == yaml.MappingNode && v.Column > k.Column {
						st.unit = v.Column - k.Column
					}
					if !seqKnown && v.Kind == yaml.SequenceNode {
						st.compact, seqKnown = v.Column == k.Column, true
					}
				}
				walk(v)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	if st.unit == 0 {
		st.unit = 2
	}
	if !seqKnown {
		st.compact = true
	}
	return st
}

// mergeNode is RFC 7386 on nodes: it merges patch into b (in place when
// both are mappings) and returns the result. Values taken from the patch
// are copies.
func mergeNode(b, patch *yaml.Node) *yaml.Node {
	if !isMap(patch) {
		return copyNode(patch)
	}
	if !isMap(b) {
		return stripNulls(patch)
	}
	for i := 0; i+1 < len(patch.Content); i += 2 {
		pk, pv := patch.Content[i], patch.Content[i+1]
		idx := -1
		for j := 0; j+1 < len(b.Content); j += 2 {
			if keyID(b.Content[j]) == keyID(pk) {
				idx = j
			}
		}
		switch {
		case idx >= 0 && isNull(pv):
			b.Content = append(b.Content[:idx:idx], b.Content[idx+2:]...)
		case idx >= 0:
			b.Content[idx+1] = mergeNode(b.Content[idx+1], pv)
		case !isNull(pv):
			b.Content = append(b.Content, cleanKey(pk), stripNulls(pv))
		}
	}
	return b
}

// stripNulls copies n without null mapping values, at any depth of
// mappings (lists are taken as they are).
func stripNulls(n *yaml.Node) *yaml.Node {
	c := copyNode(n)
	var strip func(n *yaml.Node)
	strip = func(n *yaml.Node) {
		if !isMap(n) {
			return
		}
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !isNull(n.Content[i+1]) {
				strip(n.Content[i+1])
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
	}
	strip(c)
	return c
}

func cleanKey(k *yaml.Node) *yaml.Node {
	c := copyNode(k)
	return c
}

// copyNode copies a node deeply, replacing aliases by copies of what they
// point to (an anchor of the overlay means nothing in the base).
func copyNode(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		c := copyNode(n.Alias)
		c.Anchor = ""
		return c
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x)
	}
	return &c
}

// resolve returns the overlay root with aliases expanded.
func resolve(n *yaml.Node) *yaml.Node {
	c := copyNode(n)
	var clear func(n *yaml.Node)
	clear = func(n *yaml.Node) {
		n.Anchor = ""
		if isNull(n) && n.Value == "" {
			// An empty null ("&a" alone, "key:") is written "null", which
			// stays a null wherever it lands, a flow list included.
			n.Value, n.Tag, n.Style = "null", "!!null", 0
		}
		for _, x := range n.Content {
			clear(x)
		}
	}
	clear(c)
	return c
}

// keyID identifies a mapping key as yaml.v3 does when it rejects repeated
// keys: by its kind and its text, so that 0 and "0" are one key (a result
// holding both would not parse back).
func keyID(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	switch k.Value {
	case "", "~", "null", "Null", "NULL":
		// ~, null and an empty key are one key when decoded; yaml.v3
		// also takes "null" and null for the same key.
		if k.Kind == yaml.ScalarNode {
			return "!!null"
		}
	}
	return fmt.Sprint(k.Kind) + "\x00" + k.Value
}

func nodeEqual(a, b *yaml.Node) bool {
	va, err1 := nodeValue(a)
	vb, err2 := nodeValue(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// nodeValue is what a node means, in the terms of MergePatch: mappings
// become maps keyed by keyID (the last of equal keys wins), sequences
// slices, scalars their decoded values.
func nodeValue(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeValue(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("unknown alias %q", n.Value)
		}
		return nodeValue(n.Alias)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeValue(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[keyID(n.Content[i])] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeValue(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func referenceMerge(base, overlay *yaml.Node) (any, error) {
	b, err := nodeValue(base)
	if err != nil {
		return nil, yamlError("base", err)
	}
	o, err := nodeValue(overlay)
	if err != nil {
		return nil, yamlError("overlay", err)
	}
	return MergePatch(b, o), nil
}

// yamlMeans tells whether text parses to want.
func yamlMeans(text string, want any) (bool, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return false, err
	}
	got, err := nodeValue(&doc)
	if err != nil {
		return false, err
	}
	return reflect.DeepEqual(got, want), nil
}
