package valuemerge

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	yaml "go.yaml.in/yaml/v3"
)

// Lists merged by key (mergeKeys): where a field path names a list, the
// overlay's elements merge into the base's elements with the same key
// fields, are appended when none has them, and with `$patch: delete`
// remove them, as strategic merge does (jsonpatch.MergeValuesKeyed says
// what the result means). Everything else stays RFC 7386.

// KeyedList names the lists a field path leads to and the fields that
// identify their elements.
type KeyedList struct {
	Path fieldpath.Path
	Keys []string
}

// CheckKeyedPath reports why a field path cannot name keyed lists: a list
// position means nothing in a list whose elements move (merge by key), so
// the path holds keys, * and [key=value] only.
func CheckKeyedPath(p fieldpath.Path) error {
	for _, s := range p {
		if s.Kind == fieldpath.Index {
			return fmt.Errorf("%s is a list position, which a merge by key does not keep; use [key=value] or *", s)
		}
	}
	return nil
}

type keyedLists []KeyedList

// at returns the key fields of the list reached by path, nil when no
// keyed list is there. A step into an element carries the element (a
// decoded value, or a *yaml.Node), for [key=value] to look at.
func (l keyedLists) at(path []jsonpatch.Step) []string {
	for _, k := range l {
		if stepsMatch(k.Path, path) {
			return k.Keys
		}
	}
	return nil
}

// fn is at as jsonpatch.MergeValuesKeyed wants it; nil when no list is
// keyed.
func (l keyedLists) fn() func([]jsonpatch.Step) []string {
	if len(l) == 0 {
		return nil
	}
	return l.at
}

func stepsMatch(p fieldpath.Path, steps []jsonpatch.Step) bool {
	if len(p) != len(steps) {
		return false
	}
	for i, seg := range p {
		st := steps[i]
		switch seg.Kind {
		case fieldpath.Wildcard:
		case fieldpath.Field:
			if st.Element != nil || st.Key != seg.Key {
				return false
			}
		case fieldpath.Match:
			if st.Element == nil || !elementMatches(st.Element, seg) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func elementMatches(el any, seg fieldpath.Segment) bool {
	if n, ok := el.(*yaml.Node); ok {
		return fieldpath.Matches[*yaml.Node](nodeTree{}, n, seg)
	}
	return fieldpath.Matches[any](valueTree{}, el, seg)
}

// nodeTree and valueTree show yaml.v3 nodes and decoded values to
// fieldpath, for the [key=value] of mergeKeys paths.
type nodeTree struct{}

func (nodeTree) Shape(n *yaml.Node) fieldpath.Shape {
	switch n.Kind {
	case yaml.MappingNode:
		return fieldpath.Map
	case yaml.SequenceNode:
		return fieldpath.List
	case yaml.ScalarNode:
		return fieldpath.Scalar
	}
	return fieldpath.Other
}
func (nodeTree) Len(n *yaml.Node) int { return len(n.Content) }
func (nodeTree) Lookup(n *yaml.Node, key string) (int, error) {
	return -1, nil // not asked: mergeKeys paths only match elements
}
func (nodeTree) Element(n *yaml.Node, i int) *yaml.Node { return n.Content[i] }
func (nodeTree) Field(n *yaml.Node, key string) (string, bool) {
	return keyText(fieldOf(n, key))
}
func (nodeTree) Value(n *yaml.Node) string { s, _ := keyText(n); return s }

// keyText is a scalar node as keyed lists compare it: its value decoded,
// as text (jsonpatch.KeyText), so that 00 and 0 in YAML, 8080 and "8080",
// are one key, as in the reference merge.
func keyText(n *yaml.Node) (string, bool) {
	if n == nil || n.Kind != yaml.ScalarNode || isNull(n) {
		return "", false
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value, true
	}
	return jsonpatch.KeyText(v)
}

type valueTree struct{}

func (valueTree) Shape(n any) fieldpath.Shape {
	switch n.(type) {
	case map[string]any:
		return fieldpath.Map
	case []any:
		return fieldpath.List
	}
	return fieldpath.Scalar
}
func (valueTree) Len(n any) int                         { return 0 }
func (valueTree) Lookup(n any, key string) (int, error) { return -1, nil }
func (valueTree) Element(n any, i int) any              { return nil }
func (valueTree) Value(n any) string                    { s, _ := jsonpatch.KeyText(n); return s }
func (valueTree) Field(n any, key string) (string, bool) {
	return jsonpatch.KeyText(n.(map[string]any)[key])
}

// fieldOf is the value of key in map n (aliases followed), or nil.
func fieldOf(n *yaml.Node, key string) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v := n.Content[i+1]
			if v.Kind == yaml.AliasNode && v.Alias != nil {
				v = v.Alias
			}
			return v
		}
	}
	return nil
}

// elementKeys is the text of the key fields of an overlay element (a map,
// checked by the reference merge first), and whether it says $patch:
// delete.
func elementKeys(pe *yaml.Node, fields []string) (vals []string, del bool) {
	for _, f := range fields {
		v, _ := keyText(fieldOf(pe, f))
		vals = append(vals, v)
	}
	d := fieldOf(pe, jsonpatch.DirectiveKey)
	return vals, d != nil && d.Value == "delete"
}

// hasKeys reports whether a base element has the key values vals.
func hasKeys(e *yaml.Node, fields, vals []string) bool {
	for i, f := range fields {
		if v, ok := keyText(fieldOf(e, f)); !ok || v != vals[i] {
			return false
		}
	}
	return len(fields) > 0
}

// withoutDirective copies an overlay element without its $patch.
func withoutDirective(pe *yaml.Node) *yaml.Node {
	if fieldOf(pe, jsonpatch.DirectiveKey) == nil {
		return pe
	}
	c := *pe
	c.Content = nil
	for i := 0; i+1 < len(pe.Content); i += 2 {
		if pe.Content[i].Value != jsonpatch.DirectiveKey {
			c.Content = append(c.Content, pe.Content[i], pe.Content[i+1])
		}
	}
	return &c
}

// keyError turns the reference merge's complaint about an overlay element
// into a MergeError.
func keyError(err error) error {
	if ke, ok := err.(*jsonpatch.KeyError); ok {
		return &MergeError{fmt.Sprintf("the overlay's %s: %s", jsonpatch.StepsString(ke.Path), ke.Msg)}
	}
	return err
}

// distinctKeys reports whether no two overlay elements share key values:
// then each touches its own base element, and the edits can be made one
// by one in place.
func distinctKeys(pl *yaml.Node, fields []string) bool {
	seen := map[string]bool{}
	for _, pe := range pl.Content {
		vals, _ := elementKeys(pe, fields)
		id := strings.Join(vals, "\x00")
		if seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}

func elementStep(path []jsonpatch.Step, el *yaml.Node, i int) []jsonpatch.Step {
	return append(append([]jsonpatch.Step{}, path...), jsonpatch.Step{Element: el, Index: i})
}

func keyStep(path []jsonpatch.Step, key string) []jsonpatch.Step {
	return append(append([]jsonpatch.Step{}, path...), jsonpatch.Step{Key: key})
}
