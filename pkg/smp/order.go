package smp

import (
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// applyOrders implements the $setElementOrder/<list> of patch map p
// (orders: the indexes of those keys in p.Content) once its fields are
// merged into d; before holds, for each, the positions of the list's
// elements before the merge (listsBefore).
func (m *merger) applyOrders(d, p *yaml.Node, t *schema.Type, orders []int, before []map[*yaml.Node]int) error {
	for j, i := range orders {
		list := yamltree.Resolve(p.Content[i]).Value[len(prefixOrder):]
		if err := m.setElementOrder(d, list, yamltree.Resolve(p.Content[i+1]), before[j], t.Field(list), p); err != nil {
			return err
		}
	}
	return nil
}

// setElementOrder implements $setElementOrder/<list>: the elements the order
// names (by merge keys, or by value in lists without keys) are put in that
// order; the others keep their relative order and are interleaved as
// apimachinery does: one that was in the list before the merge stays ahead of
// a named element it preceded then; otherwise the named element goes first.
// Names that match nothing are ignored.
//
// before holds the positions of the list's elements before the merge.
func (m *merger) setElementOrder(d *yaml.Node, list string, order *yaml.Node, before map[*yaml.Node]int,
	lt *schema.Type, p *yaml.Node) error {
	m.pushField(prefixOrder + list)
	defer m.pop()
	o, err := m.checkOrder(order, lt)
	if err != nil {
		return err
	}
	if pl := yamltree.Lookup(p, list); pl != nil && !isSeq(pl) && !yamltree.IsNull(yamltree.Resolve(pl)) {
		return m.errorf("%s is %s in the patch, not a list", list, yamltree.Describe(pl))
	}
	i, l, err := m.ownList(d, list)
	if i < 0 || err != nil {
		return err
	}
	out := o.reorder(l.Content, before)
	if slices.Equal(out, l.Content) {
		return nil
	}
	m.droppedAll(out) // moved, rather: aliases may now precede their anchors
	l.Content = out
	d.Content[i+1] = l
	return nil
}

// elementOrder is a $setElementOrder list, checked.
type elementOrder struct {
	order     *yaml.Node
	lt        *schema.Type
	keyed     bool
	keys      []string
	entryKeys [][]string // the merge keys of each entry, when keyed
}

// checkOrder reads and validates the order against the patch alone: maps
// naming elements by their keys in a keyed list (lt), scalars in a list
// without keys.
func (m *merger) checkOrder(order *yaml.Node, lt *schema.Type) (*elementOrder, error) {
	strategy, keys := listStrategy(lt)
	o := &elementOrder{order: order, lt: lt, keyed: strategy == schema.MergeByKeys, keys: keys}
	for idx, e := range order.Content {
		e = yamltree.Resolve(e)
		switch {
		case o.keyed && e.Kind == yaml.MappingNode:
			vals, err := m.elementKeys(e, o.keys, o.lt, nil, idx)
			if err != nil {
				return nil, err
			}
			o.entryKeys = append(o.entryKeys, vals)
		case o.keyed:
			return nil, m.errorf("element %d is %s; the list merges by %s, so name elements by their keys", idx, yamltree.Describe(e), keyNames(o.keys))
		case e.Kind != yaml.ScalarNode:
			return nil, m.errorf("element %d is %s; the list has no merge keys, so list its values", idx, yamltree.Describe(e))
		}
	}
	return o, nil
}

// rank is the position in the order of the entry naming e, -1 when none
// does.
func (o *elementOrder) rank(e *yaml.Node) int {
	for r, oe := range o.order.Content {
		if o.keyed {
			if matches(e, o.keys, o.entryKeys[r], o.lt) {
				return r
			}
		} else if re := yamltree.Resolve(e); re.Kind == yaml.ScalarNode && scalarEqual(re, yamltree.Resolve(oe)) {
			return r
		}
	}
	return -1
}

// reorder puts the named elements in the order's order and interleaves the
// others as apimachinery does (see setElementOrder).
func (o *elementOrder) reorder(content []*yaml.Node, before map[*yaml.Node]int) []*yaml.Node {
	named, others := o.partition(content)
	out := make([]*yaml.Node, 0, len(content))
	a, b := 0, 0
	for a < len(others) || b < len(named) {
		if b == len(named) || a < len(others) && goesFirst(others[a], named[b].n, before) {
			out = append(out, others[a])
			a++
		} else {
			out = append(out, named[b].n)
			b++
		}
	}
	return out
}

// ranked is an element the order names, and its place in the order.
type ranked struct {
	n    *yaml.Node
	rank int
}

// partition splits a list's elements into those the order names, sorted
// by their rank, and the others, in their order.
func (o *elementOrder) partition(content []*yaml.Node) ([]ranked, []*yaml.Node) {
	var named []ranked
	var others []*yaml.Node
	for _, e := range content {
		if r := o.rank(e); r >= 0 {
			named = append(named, ranked{e, r})
		} else {
			others = append(others, e)
		}
	}
	slices.SortStableFunc(named, func(a, b ranked) int { return a.rank - b.rank })
	return named, others
}

// goesFirst reports whether an element the order does not name stays
// ahead of a named one: both were in the list before the merge, and it
// preceded the named one then. Otherwise the named one goes first.
func goesFirst(other, named *yaml.Node, before map[*yaml.Node]int) bool {
	po, okO := before[other]
	pn, okN := before[named]
	return okO && okN && po < pn
}
