package smp

import (
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

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
	strategy, keys := lt.List()
	o := elementOrder{order: order, lt: lt, keyed: strategy == schema.MergeByKeys && len(keys) > 0, keys: keys}
	if err := m.checkOrder(&o); err != nil {
		return err
	}
	if pl := lookup(p, list); pl != nil && !isSeq(pl) && !isNull(resolve(pl)) {
		return m.errorf("%s is a %s in the patch, not a list", list, kindName(resolve(pl)))
	}
	i := keyIndex(d, list)
	if i < 0 || !isSeq(d.Content[i+1]) {
		return nil
	}
	l := d.Content[i+1]
	if l.Kind == yaml.AliasNode {
		// Reorder a private copy; the anchored list stays as it is.
		cp, err := m.copyDocument(resolve(l))
		if err != nil {
			return err
		}
		l = cp
	}
	out := o.reorder(l.Content, before)
	if slices.Equal(out, l.Content) {
		return nil
	}
	for _, e := range out {
		m.dropped(e) // moved, rather: aliases may now precede their anchors
	}
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

// checkOrder validates the order against the patch alone: maps naming
// elements by their keys in a keyed list, scalars in a list without keys.
func (m *merger) checkOrder(o *elementOrder) error {
	for idx, e := range o.order.Content {
		e = resolve(e)
		switch {
		case o.keyed && e.Kind == yaml.MappingNode:
			vals, err := m.elementKeys(e, o.keys, o.lt, nil, idx)
			if err != nil {
				return err
			}
			o.entryKeys = append(o.entryKeys, vals)
		case o.keyed:
			return m.errorf("element %d is a %s; the list merges by %s, so name elements by their keys", idx, kindName(e), keyNames(o.keys))
		case e.Kind != yaml.ScalarNode:
			return m.errorf("element %d is a %s; the list has no merge keys, so list its values", idx, kindName(e))
		}
	}
	return nil
}

// rank is the position in the order of the entry naming e, -1 when none
// does.
func (o *elementOrder) rank(e *yaml.Node) int {
	for r, oe := range o.order.Content {
		if o.keyed {
			if matches(e, o.keys, o.entryKeys[r], o.lt) {
				return r
			}
		} else if re := resolve(e); re.Kind == yaml.ScalarNode && scalarEqual(re, resolve(oe)) {
			return r
		}
	}
	return -1
}

// reorder puts the named elements in the order's order and interleaves the
// others as apimachinery does (see setElementOrder).
func (o *elementOrder) reorder(content []*yaml.Node, before map[*yaml.Node]int) []*yaml.Node {
	type ranked struct {
		n    *yaml.Node
		rank int
	}
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
	out := make([]*yaml.Node, 0, len(content))
	a, b := 0, 0
	for a < len(others) || b < len(named) {
		// an element that was in the list before the merge stays ahead of a
		// named element it preceded then; otherwise the named one goes first
		takeOther := b == len(named)
		if a < len(others) && b < len(named) {
			po, okO := before[others[a]]
			pn, okN := before[named[b].n]
			takeOther = okO && okN && po < pn
		}
		if takeOther {
			out = append(out, others[a])
			a++
		} else {
			out = append(out, named[b].n)
			b++
		}
	}
	return out
}
