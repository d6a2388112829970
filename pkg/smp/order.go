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
	keyed := strategy == schema.MergeByKeys && len(keys) > 0

	// Validate the order against the patch alone.
	var entryKeys [][]string
	for idx, e := range order.Content {
		e = resolve(e)
		switch {
		case keyed && e.Kind == yaml.MappingNode:
			vals, err := m.elementKeys(e, keys, lt, nil, idx)
			if err != nil {
				return err
			}
			entryKeys = append(entryKeys, vals)
		case keyed:
			return m.errorf("element %d is a %s; the list merges by %s, so name elements by their keys", idx, kindName(e), keyNames(keys))
		case e.Kind != yaml.ScalarNode:
			return m.errorf("element %d is a %s; the list has no merge keys, so list its values", idx, kindName(e))
		}
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

	rank := func(e *yaml.Node) int {
		for r, oe := range order.Content {
			if keyed {
				if matches(e, keys, entryKeys[r], lt) {
					return r
				}
			} else if re := resolve(e); re.Kind == yaml.ScalarNode && scalarEqual(re, resolve(oe)) {
				return r
			}
		}
		return -1
	}
	type ranked struct {
		n    *yaml.Node
		rank int
	}
	content := l.Content
	var named []ranked
	var others []*yaml.Node
	for _, e := range content {
		if r := rank(e); r >= 0 {
			named = append(named, ranked{e, r})
		} else {
			others = append(others, e)
		}
	}
	slices.SortStableFunc(named, func(a, b ranked) int { return a.rank - b.rank })

	out := make([]*yaml.Node, 0, len(content))
	a, b := 0, 0
	for a < len(others) || b < len(named) {
		switch {
		case b == len(named):
			out = append(out, others[a])
			a++
		case a == len(others):
			out = append(out, named[b].n)
			b++
		default:
			po, okO := before[others[a]]
			pn, okN := before[named[b].n]
			if okO && okN && po < pn {
				out = append(out, others[a])
				a++
			} else {
				out = append(out, named[b].n)
				b++
			}
		}
	}
	if slices.Equal(out, content) {
		return nil
	}
	for _, e := range out {
		m.dropped(e) // moved, rather: aliases may now precede their anchors
	}
	l.Content = out
	d.Content[i+1] = l
	return nil
}
