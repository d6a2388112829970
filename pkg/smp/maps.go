package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// mergeMap merges the fields of patch map p into document map d (its $patch
// directive has been handled by the caller). The steps run in a fixed order so
// that the result never depends on the order of keys in the patch:
//
//  1. $retainKeys clears the fields it does not list;
//  2. $deleteFromPrimitiveList/<list> removes values from lists;
//  3. the fields merge, in patch order (new fields are appended);
//  4. $setElementOrder/<list> reorders the merged lists.
func (m *merger) mergeMap(d, p *yaml.Node, t *schema.Type) error {
	dirs, err := m.scanDirectives(p, t)
	if err != nil {
		return err
	}
	wasEmpty := len(d.Content) == 0
	defer settleStyle(d, p, wasEmpty)
	if err := m.applyRetainKeys(d, p, dirs.retainKeys); err != nil {
		return err
	}
	m.applyDeletes(d, p, dirs.deletes)
	before := listsBefore(d, p, dirs.orders)
	if err := m.mergeFields(d, p, t); err != nil {
		return err
	}
	return m.applyOrders(d, p, t, dirs.orders, before)
}

// mergeFields merges the fields of patch map p, its directives left out,
// into document map d.
func (m *merger) mergeFields(d, p *yaml.Node, t *schema.Type) error {
	for i := 0; i+1 < len(p.Content); i += 2 {
		if isDirectiveKey(p, i) {
			continue
		}
		if err := m.field(d, p.Content[i], p.Content[i+1], t); err != nil {
			return err
		}
	}
	return nil
}

// field merges one patch field (key node pk, value pv) into map d.
func (m *merger) field(d, pk, pv *yaml.Node, t *schema.Type) error {
	k := yamltree.Resolve(pk).Value
	i := keyIndexOf(d, pk)
	var cur *yaml.Node
	if i >= 0 {
		cur = d.Content[i+1]
	}
	m.pushField(k)
	r, err := m.value(cur, pv, t.Field(k))
	if err != nil {
		return err
	}
	m.pop()
	switch {
	case r == nil && i >= 0:
		m.dropped(d.Content[i])
		m.dropped(cur)
		d.Content = append(d.Content[:i], d.Content[i+2:]...)
	case r == nil:
		// deleting an absent field: nothing to do
	case i >= 0:
		d.Content[i+1] = r
	default:
		d.Content = append(d.Content, shell(yamltree.Resolve(pk)), r)
	}
	return nil
}

// listsBefore remembers which elements each list a $setElementOrder
// reorders (orders: the indexes of those keys in p.Content) had before the
// merge: it places the others (new ones) differently.
func listsBefore(d, p *yaml.Node, orders []int) []map[*yaml.Node]int {
	if len(orders) == 0 {
		return nil
	}
	before := make([]map[*yaml.Node]int, len(orders))
	for j, i := range orders {
		before[j] = elementsOf(yamltree.Lookup(d, yamltree.Resolve(p.Content[i]).Value[len(prefixOrder):]))
	}
	return before
}

// elementsOf maps the elements of a document list to their positions.
func elementsOf(l *yaml.Node) map[*yaml.Node]int {
	if l == nil || l.Kind != yaml.SequenceNode {
		return nil
	}
	pos := make(map[*yaml.Node]int, len(l.Content))
	for i, e := range l.Content {
		pos[e] = i
	}
	return pos
}
