package smp

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// mergeKeyed merges a list whose elements are maps identified by the fields
// in keys (a multi-field key matches only when all fields are equal).
//
// Every patch element is accounted for: it merges into the first document
// element with the same keys, is appended when there is none, or (with
// $patch: delete) removes all elements with those keys. A key field the
// patch element omits takes the API default when the schema has one
// (protocol: TCP) — on both sides, as the API server would see them — and is
// an error otherwise: guessing could patch the wrong element.
func (m *merger) mergeKeyed(d, p *yaml.Node, t *schema.Type, keys []string) error {
	var buf [4]string
	for idx, pe := range p.Content {
		if isMarker(pe) {
			continue
		}
		raw := pe // value() must see the alias, to count what it expands
		pe = yamltree.Resolve(pe)
		if pe.Kind != yaml.MappingNode {
			return m.errorf("element %d is %s, but this list holds maps merged by %s", idx, yamltree.Describe(pe), keyNames(keys))
		}
		vals, err := m.elementKeys(pe, keys, t, buf[:0], idx)
		if err != nil {
			return err
		}
		m.pushElem(idx, pe, t)
		if err := m.mergeElement(d, raw, pe, t, keys, vals); err != nil {
			return err
		}
		m.pop()
	}
	return nil
}

// mergeElement merges patch element pe (raw: as written, maybe an alias),
// whose key values are vals, into list d: it deletes the elements with
// those keys ($patch: delete), merges into the first of them, or appends
// it.
func (m *merger) mergeElement(d, raw, pe *yaml.Node, t *schema.Type, keys, vals []string) error {
	dir, err := m.mapDirective(pe)
	switch {
	case err != nil:
		return err
	case dir == directiveDelete:
		return m.deleteMatching(d, keys, vals, t)
	}
	j := findMatch(d, keys, vals, t)
	switch {
	case j >= 0:
		return m.mergeMatch(d, j, raw, t)
	case m.fill:
		// Defaults fill the elements there and add none: the element is
		// built only for the errors it may hold. Where no resource has
		// it, the caller says so (Tally).
		if slot := m.record(false); slot >= 0 {
			m.elements[slot].Unfilled = true
		}
		return m.dryRun(raw, t.ElementFor(pe))
	}
	return m.addElement(d, raw, t.ElementFor(pe))
}

// mergeMatch merges patch element raw into element j of list d, which has
// its keys.
func (m *merger) mergeMatch(d *yaml.Node, j int, raw *yaml.Node, t *schema.Type) error {
	slot := m.record(false)
	r, err := m.value(d.Content[j], raw, t.ElementFor(d.Content[j]))
	if err != nil {
		return err
	}
	m.settle(slot, r)
	d.Content[j] = r
	return nil
}

// addElement appends to list d the element patch element raw makes alone,
// of type et. It is new as a whole: the keyed elements inside come with it.
func (m *merger) addElement(d, raw *yaml.Node, et *schema.Type) error {
	slot := m.record(true)
	m.whole++
	r, err := m.value(nil, raw, et)
	m.whole--
	if err != nil {
		return err
	}
	m.settle(slot, r)
	d.Content = append(d.Content, r)
	return nil
}

// elementKeys returns the merge-key values of a patch element, defaults filled
// in; a key that is missing without a default is an error naming the list,
// the element and the field.
func (m *merger) elementKeys(pe *yaml.Node, keys []string, t *schema.Type, vals []string, idx int) ([]string, error) {
	for _, k := range keys {
		v, ok := keyField(pe, k)
		switch {
		case v != nil && !ok:
			return nil, m.errorf("element %d: merge key %q must be a value, found %s", idx, k, yamltree.Describe(v))
		case ok:
			vals = append(vals, KeyValue(v))
			continue
		}
		def, ok := t.KeyDefault(k)
		if !ok {
			return nil, m.errorf("element %d%s lacks %q: the list merges by %s and %q has no default, so the element cannot be matched; add %q to it",
				idx, presentKeys(pe, keys), k, keyNames(keys), k, k)
		}
		vals = append(vals, def)
	}
	return vals, nil
}

// keyField is the node of merge key k of element e, and whether it holds
// a value (a scalar but null). A missing field and a null give nil: the
// key's default applies.
func keyField(e *yaml.Node, k string) (*yaml.Node, bool) {
	v := yamltree.Lookup(e, k)
	if v == nil {
		return nil, false
	}
	if v = yamltree.Resolve(v); yamltree.IsNull(v) {
		return nil, false
	}
	return v, v.Kind == yaml.ScalarNode
}

// keyOf returns the merge-key value of a document element, with the default
// when the field is missing or null; ok is false when it has none.
func keyOf(e *yaml.Node, k string, t *schema.Type) (string, bool) {
	v, ok := keyField(e, k)
	switch {
	case ok:
		return KeyValue(v), true
	case v != nil:
		return "", false
	}
	return t.KeyDefault(k)
}

// matches reports whether document element e has the key values vals
// (KeyValue: 8080 and "8080" are the same port to a user).
func matches(e *yaml.Node, keys, vals []string, t *schema.Type) bool {
	e = yamltree.Resolve(e)
	if e.Kind != yaml.MappingNode {
		return false
	}
	for i, k := range keys {
		v, ok := keyOf(e, k, t)
		if !ok || v != vals[i] {
			return false
		}
	}
	return true
}

// findMatch returns the index of the first document element with the key
// values vals, or -1. With duplicates (an invalid document) the first wins,
// as in apimachinery.
func findMatch(d *yaml.Node, keys, vals []string, t *schema.Type) int {
	for j, e := range d.Content {
		if matches(e, keys, vals, t) {
			return j
		}
	}
	return -1
}

// deleteMatching removes every document element with the key values vals
// (duplicates included, as apimachinery does). No match is no error: the
// element is already gone. A default may delete nothing.
func (m *merger) deleteMatching(d *yaml.Node, keys, vals []string, t *schema.Type) error {
	if err := m.refusePatch(directiveDelete); err != nil {
		return err
	}
	c := d.Content
	out := c[:0]
	for _, e := range c {
		if matches(e, keys, vals, t) {
			m.dropped(e)
			continue
		}
		out = append(out, e)
	}
	clear(c[len(out):])
	d.Content = out
	return nil
}

// KeyValue is a merge key's value as elements are matched by it: the key
// yaml.v3 makes of it (scalar.JSONKey), a string as it is, a number or a
// boolean as the value it reads as (8080 and "8080", 00 and 0, 1.0 and 1
// are one key; True is true), as map keys are matched too. The
// elements of every keyed list, in resources and in values held in
// strings, are matched by this one rule.
func KeyValue(v *yaml.Node) string {
	switch tagOf(v) {
	case yaml.NodeTagString:
		return v.Value
	case yaml.NodeTagInt:
		if plainDecimal(v.Value) {
			return v.Value
		}
	}
	return scalar.JSONKey(v)
}

// plainDecimal reports whether s is a decimal integer written as readers
// write it back: no sign but -, no leading zero, no _.
func plainDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" || len(s) > 18 || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func keyNames(keys []string) string {
	return "[" + strings.Join(keys, ", ") + "]"
}

// presentKeys describes the key fields an element does have, e.g.
// " (topologyKey=zone)", to help find it in the patch.
func presentKeys(pe *yaml.Node, keys []string) string {
	var parts []string
	for _, k := range keys {
		if v, ok := keyField(pe, k); ok {
			parts = append(parts, k+"="+v.Value)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
