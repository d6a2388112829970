package valuemerge

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"reflect"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// JSON is merged as data and written as edits of the base text through
// package embedded: a value the overlay does not touch keeps its bytes;
// a changed value, a new key and a deleted key are each one surgical edit,
// laid out as the base lays out its JSON.

// checkJSON checks s with encoding/json, for its exact rules and messages,
// then with the editor, and rejects repeated keys: encoding/json keeps the
// last of equal keys, and a merge cannot know which one was meant.
func checkJSON(s, which string) error {
	_, err := checkJSONTree(s, which, nil)
	return err
}

// checkJSONTree is checkJSON that also returns the value of an object or
// array as the editor reads it (nil for a scalar), parsed through cache.
func checkJSONTree(s, which string, cache *embedded.Cache) (*yaml.Node, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: JSON, Msg: "the value is empty"}
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "json: ")}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read up to and including the bad one.
			pe.Line, pe.Column = lineCol(s, int(se.Offset)-1)
		case errors.As(err, &te):
			// encoding/json's text quotes the number; values may be secret.
			pe.Msg = "a number is out of range"
		}
		return nil, pe
	}
	if off := invalidUTF8(s); off >= 0 {
		// encoding/json would read the bad bytes as U+FFFD; the editor
		// refuses them rather than write text that is not what it read.
		line, col := lineCol(s, off)
		return nil, &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	dup := func() error {
		if key, off, ok := duplicateKey(s); ok {
			line, col := lineCol(s, off)
			return &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: fmt.Sprintf("duplicate key %q", key)}
		}
		return nil
	}
	if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return nil, nil // a scalar: no keys
	}
	// What the editor cannot read (nesting deeper than it allows) cannot
	// be merged either.
	err := embedded.Check(s, embedded.JSON) // Get would take YAML too
	var vs []*yaml.Node
	if err == nil {
		vs, err = embedded.Get(s, nil, embedded.Options{Cache: cache})
	}
	if err != nil {
		if derr := dup(); derr != nil {
			return nil, derr
		}
		pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "the text does not parse as JSON: ")}
		if n, _ := fmt.Sscanf(pe.Msg, "line %d, column %d:", &pe.Line, &pe.Column); n == 2 {
			pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
		}
		return nil, pe
	}
	if hasRepeatedKey(vs[0]) {
		// Found on the tree; the scan of the text says where.
		return nil, dup()
	}
	return vs[0], nil
}

// hasRepeatedKey reports whether a map, at any depth, has a key twice.
func hasRepeatedKey(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode && len(n.Content) > 2 {
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i < len(n.Content); i += 2 {
			if seen[n.Content[i].Value] {
				return true
			}
			seen[n.Content[i].Value] = true
		}
	}
	for _, c := range n.Content {
		if hasRepeatedKey(c) {
			return true
		}
	}
	return false
}

// duplicateKey finds the first key repeated within an object of valid
// JSON, and the offset where it starts.
func duplicateKey(s string) (string, int, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	type frame struct {
		object, wantKey bool
		seen            map[string]bool
	}
	var stack []*frame
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if key, ok := tok.(string); ok {
				if top.seen[key] {
					// The key starts after the separator before it.
					off := before + len(s[before:]) - len(strings.TrimLeft(s[before:], " \t\r\n,"))
					return key, off, true
				}
				top.seen[key] = true
				top.wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, wantKey: true, seen: map[string]bool{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object expects a key again.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].wantKey = true
		}
	}
}

func mergeJSON(base, overlay string, keyed keyedLists) (string, error) {
	cache := embedded.NewCache()
	over, err := checkJSONTree(overlay, "overlay", cache)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(overlay) == "null" {
		return "", &ParseError{Which: "overlay", Format: JSON, Msg: "the value is null; a null overlay would delete everything"}
	}
	if strings.TrimSpace(base) == "" {
		// Nothing to keep: the overlay as written, less its null members
		// (merging into an empty object drops them) and, in keyed lists,
		// its $patch elements.
		if len(keyed) > 0 && strings.HasPrefix(strings.TrimSpace(overlay), "{") {
			return mergeJSON("{}", overlay, keyed)
		}
		return mergeJSON(overlay, overlay, keyed)
	}
	b, err := checkJSONTree(base, "base", cache)
	if err != nil {
		return "", err
	}
	want, err := referenceJSON(base, overlay, keyed)
	if err != nil {
		return "", err
	}
	m := &jmerger{base: base, over: overlay, cache: cache, keyed: keyed}
	if err := m.mergeTrees(b, over); err != nil {
		return "", fmt.Errorf("internal error merging JSON (please report): %w", err)
	}
	out, err := embedded.Edit(m.base, m.opts(false), m.changes...)
	for _, a := range m.appends {
		if err == nil {
			out, err = embedded.Edit(out, m.opts(false), a)
		}
	}
	if err != nil {
		return "", fmt.Errorf("internal error merging JSON (please report): %w", err)
	}
	if err := checkJSONResult(out, want); err != nil {
		return "", err
	}
	return out, nil
}

// jmerger collects the edits of the base text that merge the overlay in;
// they are applied in one batch, so the base is parsed and the result
// verified once however many values change.
type jmerger struct {
	base, over string
	changes    []embedded.Change
	// appends add elements to keyed lists, one edit each, after changes.
	appends []embedded.Change
	cache   *embedded.Cache
	keyed   keyedLists
}

func (m *jmerger) opts(create bool) embedded.Options {
	return embedded.Options{Cache: m.cache, Create: create}
}

// get returns the value at path in text; a nil path is the whole
// document, which may be a scalar.
func (m *jmerger) get(text string, path fieldpath.Path) (*yaml.Node, error) {
	if len(path) == 0 {
		trimmed := strings.TrimSpace(text)
		if !strings.HasPrefix(trimmed, "{") && !strings.HasPrefix(trimmed, "[") {
			return &yaml.Node{Kind: yaml.ScalarNode}, nil
		}
	}
	vs, err := embedded.Get(text, path, m.opts(false))
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// text returns the source text of the value at path; a nil path is the
// whole document.
func (m *jmerger) text(text string, path fieldpath.Path) (string, error) {
	if len(path) == 0 {
		return strings.TrimSpace(text), nil
	}
	ts, err := embedded.GetText(text, path, m.opts(false))
	if err != nil {
		return "", err
	}
	return ts[0], nil
}

// mergeRoot merges the overlay into the base.
func (m *jmerger) mergeRoot() error {
	return m.mergeTrees(nil, nil)
}

// mergeTrees merges the overlay into the base, given their values when
// they are at hand (nil: read them).
func (m *jmerger) mergeTrees(b, p *yaml.Node) error {
	var err error
	if b == nil {
		if b, err = m.get(m.base, nil); err != nil {
			return err
		}
	}
	if p == nil {
		if p, err = m.get(m.over, nil); err != nil {
			return err
		}
	}
	return m.merge(nil, nil, nil, b, p)
}

// merge merges the overlay's value p, at opath in the overlay, into the
// base's, b, at path; steps is the way there for keyed lists (whose
// elements are at different positions in base and overlay).
func (m *jmerger) merge(path, opath fieldpath.Path, steps []jsonpatch.Step, b, p *yaml.Node) error {
	if keys := m.keyed.at(steps); keys != nil && len(path) > 0 && p.Kind == yaml.SequenceNode && b.Kind == yaml.SequenceNode && len(b.Content) > 0 {
		return m.mergeList(path, opath, steps, b, p, keys)
	}
	if p.Kind != yaml.MappingNode {
		btext, err := m.text(m.base, path)
		if err != nil {
			return err
		}
		ptext, err := m.text(m.over, opath)
		if err != nil {
			return err
		}
		if jsonEqual(btext, ptext) {
			return nil // the same value: keep how the base wrote it
		}
		return m.set(path, steps, p, ptext, false)
	}
	if b.Kind != yaml.MappingNode {
		ptext, err := m.text(m.over, opath)
		if err != nil {
			return err
		}
		return m.set(path, steps, p, ptext, false)
	}
	if sp := m.fresh(p, steps); len(b.Content) == 0 && len(path) > 0 {
		// An empty object gains members laid out as the base lays out
		// objects.
		if len(sp.Content) == 0 {
			return nil
		}
		m.changes = append(m.changes, embedded.Change{Path: path, Set: func(*yaml.Node) (*yaml.Node, error) { return sp, nil }})
		return nil
	}
	has := map[string]*yaml.Node{}
	for i := 0; i+1 < len(b.Content); i += 2 {
		has[b.Content[i].Value] = b.Content[i+1]
	}
	// Changed values first, then new keys (after the existing ones), and
	// deletions last: the order applying them one by one would need for
	// new keys to copy the layout of existing entries.
	var deletes []fieldpath.Path
	for i := 0; i+1 < len(p.Content); i += 2 {
		key, v := p.Content[i].Value, p.Content[i+1]
		sub, osub := appendKey(path, key), appendKey(opath, key)
		var subSteps []jsonpatch.Step
		if len(m.keyed) > 0 {
			subSteps = keyStep(steps, key)
		}
		bv, found := has[key]
		switch {
		case !found && isNullNode(v):
		case !found:
			text, err := m.text(m.over, osub)
			if err != nil {
				return err
			}
			if err := m.set(sub, subSteps, v, text, true); err != nil {
				return err
			}
		case isNullNode(v):
			deletes = append(deletes, sub)
		default:
			if err := m.merge(sub, osub, subSteps, bv, v); err != nil {
				return err
			}
		}
	}
	for _, sub := range deletes {
		m.changes = append(m.changes, embedded.Change{Path: sub, Delete: true})
	}
	return nil
}

// set writes the overlay's value v, written text in the overlay, at path:
// as the overlay wrote it when that is one line, laid out as the base lays
// out JSON when it spans lines or loses null members.
func (m *jmerger) set(path fieldpath.Path, steps []jsonpatch.Step, v *yaml.Node, text string, create bool) error {
	if len(m.keyed) > 0 && !hasNullMember(v) {
		if nv := m.fresh(v, steps); !nodeEqual(nv, v) {
			// keyed lists inside lose their $patch elements
			m.changes = append(m.changes, embedded.Change{Path: path, Create: create, Set: func(*yaml.Node) (*yaml.Node, error) { return nv, nil }})
			return nil
		}
	}
	switch {
	case len(path) == 0 && !hasNullMember(v):
		// The whole document: it keeps the space around it. Nothing else
		// changes (the base is not an object, or the overlay is not).
		b := strings.TrimSpace(m.base)
		i := strings.Index(m.base, b)
		m.base = m.base[:i] + text + m.base[i+len(b):]
	case len(path) == 0:
		return m.setRoot(v)
	case !strings.Contains(text, "\n") && !hasNullMember(v):
		m.changes = append(m.changes, embedded.Change{Path: path, Text: text, Create: create})
	default:
		v = m.fresh(v, steps)
		m.changes = append(m.changes, embedded.Change{Path: path, Create: create, Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }})
	}
	return nil
}

// setRoot replaces the whole document with a map that loses null members:
// the map is merged into an empty object of the base's text.
func (m *jmerger) setRoot(v *yaml.Node) error {
	b := strings.TrimSpace(m.base)
	i := strings.Index(m.base, b)
	m.base = m.base[:i] + "{}" + m.base[i+len(b):]
	return m.mergeRoot()
}

func appendKey(path fieldpath.Path, key string) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Field, Key: key})
}

func isNullNode(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// hasNullMember reports whether a map, at any depth of maps, has a null
// member (lists are taken as they are).
func hasNullMember(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 1; i < len(n.Content); i += 2 {
		if isNullNode(n.Content[i]) || hasNullMember(n.Content[i]) {
			return true
		}
	}
	return false
}

// stripNullMembers copies a map without its null members, at any depth
// of maps.
func stripNullMembers(n *yaml.Node) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return n
	}
	c := *n
	c.Content = nil
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !isNullNode(n.Content[i+1]) {
			c.Content = append(c.Content, n.Content[i], stripNullMembers(n.Content[i+1]))
		}
	}
	return &c
}

func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func jsonEqual(a, b string) bool {
	va, err1 := decodeJSON(a)
	vb, err2 := decodeJSON(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// referenceJSON is what the merge means (RFC 7386, keyed lists merged by
// key); an overlay element a keyed list cannot take is a MergeError.
func referenceJSON(base, overlay string, keyed keyedLists) (any, error) {
	b, err1 := decodeJSON(base)
	o, err2 := decodeJSON(overlay)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("internal error merging JSON (please report): %w", err)
	}
	want, err := jsonpatch.MergeValuesKeyed(b, o, keyed.fn())
	return want, keyError(err)
}

// checkJSONResult is a safety net: the text written must parse and mean
// exactly what the merge means. A failure is a bug here, and is reported
// rather than written.
func checkJSONResult(out string, want any) error {
	got, err := decodeJSON(out)
	if err != nil {
		return fmt.Errorf("internal error merging JSON (please report): %w", err)
	}
	if !reflect.DeepEqual(got, want) {
		// The texts are not quoted: they may be a Secret's values.
		return fmt.Errorf("internal error merging JSON (please report): the result does not mean what the merge means")
	}
	return nil
}

// fresh is an overlay value written where the base has nothing to merge
// it into: a copy less its null members and, in keyed lists, $patch
// elements.
func (m *jmerger) fresh(v *yaml.Node, steps []jsonpatch.Step) *yaml.Node {
	if len(m.keyed) == 0 {
		return stripNullMembers(v)
	}
	return m.keyed.mergeNode(nil, v, steps)
}

// mergeList merges the overlay's list p into the base's list b by the key
// fields: in place when each overlay element names its own base element
// and none is removed, else the merged list written whole (laid out as the
// base lays out JSON).
func (m *jmerger) mergeList(path, opath fieldpath.Path, steps []jsonpatch.Step, b, p *yaml.Node, fields []string) error {
	plain := distinctKeys(p, fields)
	for _, pe := range p.Content {
		if _, del := elementKeys(pe, fields); del {
			plain = false
		}
	}
	if !plain {
		v := m.keyed.mergeList(b, p, steps, fields)
		m.changes = append(m.changes, embedded.Change{Path: path, Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }})
		return nil
	}
	size := len(b.Content)
	for i, pe := range p.Content {
		vals, _ := elementKeys(pe, fields)
		j := slices.IndexFunc(b.Content, func(e *yaml.Node) bool { return hasKeys(e, fields, vals) })
		if j < 0 {
			// As the overlay wrote it when that is one line and nothing
			// in it goes (nulls, $patch), else laid out as the base.
			c := embedded.Change{Path: appendIndex(path, size), Create: true}
			v := m.keyed.mergeNode(nil, pe, elementStep(steps, pe, i))
			text, err := m.text(m.over, appendIndex(opath, i))
			if err != nil {
				return err
			}
			if c.Text = text; strings.Contains(text, "\n") || hasNullMember(pe) || !nodeEqual(v, pe) {
				c.Text, c.Set = "", func(*yaml.Node) (*yaml.Node, error) { return v, nil }
			}
			m.appends = append(m.appends, c)
			size++
			continue
		}
		if err := m.merge(appendIndex(path, j), appendIndex(opath, i), elementStep(steps, b.Content[j], i), b.Content[j], pe); err != nil {
			return err
		}
	}
	return nil
}
