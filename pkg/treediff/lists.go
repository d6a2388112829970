package treediff

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// list compares two lists: aligned element by element (align), or, for a
// list of scalars that is not a set, as a whole.
func (d *differ) list(old, new *yaml.Node, t *schema.Type) {
	strategy, keys := t.List()
	if strategy != schema.Set && scalars(old) && scalars(new) {
		if !d.equal(old, new) {
			d.add(Changed, old, new)
		}
		return
	}
	pos := d.align(old, new, strategy, keys)
	kept := make([]bool, len(old.Content))
	for i, j := range pos {
		el := new.Content[i]
		d.pushElem(el, i, keys)
		if j >= 0 {
			kept[j] = true
			d.node(old.Content[j], el, t.ElementFor(yamltree.Resolve(el)))
		} else {
			d.add(Added, nil, yamltree.Resolve(el))
		}
		d.pop()
	}
	for j, el := range old.Content {
		if !kept[j] {
			d.pushElem(el, j, keys)
			d.add(Removed, yamltree.Resolve(el), nil)
			d.pop()
		}
	}
}

// scalars reports whether every element of a list is a scalar.
func scalars(list *yaml.Node) bool {
	for _, el := range list.Content {
		if yamltree.Resolve(el).Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

// align gives, for each element of new, the position in old of the
// element it is (-1: a new one), found in turn by identity, by merge keys,
// by equal content, and among the elements left by place: a set's
// elements and a keyed list's are their values and keys, never paired by
// place.
func (d *differ) align(old, new *yaml.Node, strategy schema.ListStrategy, keys []string) []int {
	a := aligner{old: old.Content, pos: make([]int, len(new.Content)), used: make([]bool, len(old.Content))}
	for i := range a.pos {
		a.pos[i] = -1
	}
	a.byIdentity(new.Content, d.o.Origin)
	if strategy == schema.MergeByKeys {
		a.byKeys(new.Content, keys)
	}
	if len(old.Content)*len(new.Content) <= maxCompared {
		a.by(new.Content, d.equal)
	}
	if strategy == schema.Replace {
		// as package jsonpatch keeps list elements: by name, then the
		// ones without a name by place
		a.byKeys(new.Content, nameKey)
		a.byPlace(new.Content)
	}
	return a.pos
}

// aligner pairs the elements of a new list with those of the old.
type aligner struct {
	old  []*yaml.Node
	pos  []int
	used []bool
}

func (a *aligner) pair(i, j int) {
	a.pos[i], a.used[j] = j, true
}

// byIdentity pairs an element with the old one it is.
func (a *aligner) byIdentity(new []*yaml.Node, origin func(*yaml.Node) *yaml.Node) {
	at := make(map[*yaml.Node]int, len(a.old))
	for j, el := range a.old {
		at[el] = j
	}
	for i, el := range new {
		if origin != nil {
			el = origin(el)
		}
		if j, ok := at[el]; ok && el != nil && !a.used[j] {
			a.pair(i, j)
		}
	}
}

// maxCompared bounds the pairs of elements compared by content in one
// list (a list of thousands the change rebuilt is aligned by place).
const maxCompared = 1 << 14

// byKeys pairs the elements left with the first old one left with the
// same merge keys.
func (a *aligner) byKeys(new []*yaml.Node, keys []string) {
	at := map[string][]int{}
	for j, el := range a.old {
		if k, ok := keyValues(el, keys); ok && !a.used[j] {
			at[k] = append(at[k], j)
		}
	}
	for i, el := range new {
		k, ok := keyValues(el, keys)
		if a.pos[i] >= 0 || !ok {
			continue
		}
		if js := at[k]; len(js) > 0 {
			a.pair(i, js[0])
			at[k] = js[1:]
		}
	}
}

// keyValues is the merge keys of element n, as elements are matched by
// them (smp.KeyValue); false when n is no map or lacks one.
func keyValues(n *yaml.Node, keys []string) (string, bool) {
	n = yamltree.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || len(keys) == 0 {
		return "", false
	}
	s := ""
	for _, k := range keys {
		v := yamltree.Resolve(yamltree.Lookup(n, k))
		if v == nil || v.Kind != yaml.ScalarNode {
			return "", false
		}
		s += smp.KeyValue(v) + "\x00"
	}
	return s, true
}

// by pairs the elements left with the first old one left that same says
// is the same.
func (a *aligner) by(new []*yaml.Node, same func(x, y *yaml.Node) bool) {
	for i, el := range new {
		if a.pos[i] >= 0 {
			continue
		}
		for j, o := range a.old {
			if !a.used[j] && same(o, el) {
				a.pair(i, j)
				break
			}
		}
	}
}

var nameKey = []string{"name"}

// byPlace pairs the elements left that have no name, in order, with the
// old ones left that have none.
func (a *aligner) byPlace(new []*yaml.Node) {
	j := 0
	for i, el := range new {
		if a.pos[i] >= 0 || named(el) {
			continue
		}
		for j < len(a.old) && (a.used[j] || named(a.old[j])) {
			j++
		}
		if j == len(a.old) {
			return
		}
		a.pair(i, j)
	}
}

func named(el *yaml.Node) bool {
	_, ok := keyValues(el, nameKey)
	return ok
}

// equal compares two values as data (smp.Equal: styles, comments and key
// order aside), each node compared charged to the Diff's bound.
func (d *differ) equal(a, b *yaml.Node) bool {
	if d.visits++; d.visits > MaxNodes {
		return false
	}
	a, b = yamltree.Resolve(a), yamltree.Resolve(b)
	switch {
	case a == nil || b == nil || a.Kind != b.Kind || len(a.Content) != len(b.Content):
		return a == b
	case a.Kind == yaml.ScalarNode:
		return smp.Equal(a, b)
	case a.Kind == yaml.SequenceNode:
		for i := range a.Content {
			if !d.equal(a.Content[i], b.Content[i]) {
				return false
			}
		}
		return true
	}
	inA := lookup(a)
	for i := 0; i+1 < len(b.Content); i += 2 {
		if !d.equal(inA.get(yamltree.Resolve(b.Content[i]).Value), b.Content[i+1]) {
			return false
		}
	}
	return true
}
