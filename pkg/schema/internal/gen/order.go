package main

import (
	"fmt"
	"maps"
	"slices"
)

// typeOrder numbers the types the tables hold: those that matter,
// reachable from the kinds and from the named types that matter. Equal
// anonymous leaves share a number.
type typeOrder struct {
	nodes  []*node
	leaves map[string]int // anonymous leaf content → index
	uses   map[string]int // anonymous leaf content → number of uses
}

func (g *graph) order() (*typeOrder, error) {
	o := &typeOrder{leaves: map[string]int{}, uses: map[string]int{}}
	seenKind := map[[2]string]bool{}
	for _, k := range g.kinds {
		if seenKind[[2]string{k.apiVersion, k.kind}] {
			return nil, fmt.Errorf("kind %s %s defined twice", k.apiVersion, k.kind)
		}
		seenKind[[2]string{k.apiVersion, k.kind}] = true
		o.visit(g.named[k.typeName], true)
	}
	for _, name := range slices.Sorted(maps.Keys(g.named)) {
		o.visit(g.named[name], false)
	}
	if len(o.nodes) >= 1<<16 {
		return nil, fmt.Errorf("%d types do not fit the uint16 indexes of the tables", len(o.nodes))
	}
	return o, nil
}

// visit numbers n (unless it does not matter and force is off) and what
// it refers to, and returns its number.
func (o *typeOrder) visit(n *node, force bool) int {
	if n == nil || (!n.interesting && !force) {
		return 0
	}
	if n.index == 0 && n.isLeaf() {
		if i, ok := o.shareLeaf(n); ok {
			n.index = i
			return i
		}
	}
	if n.index == 0 {
		o.number(n)
	}
	return n.index
}

// isLeaf reports whether n is an anonymous type with nothing below it
// that matters.
func (n *node) isLeaf() bool {
	return n.name == "" && !n.interestingElem() && !n.hasInterestingField()
}

// shareLeaf returns the number of an equal leaf numbered before; if there
// is none, n's content takes the number n gets next.
func (o *typeOrder) shareLeaf(n *node) (int, bool) {
	key := n.row()
	o.uses[key]++
	if i, ok := o.leaves[key]; ok {
		return i, true
	}
	o.leaves[key] = len(o.nodes) + 1
	return 0, false
}

// number gives n the next number, then visits its fields and elements.
func (o *typeOrder) number(n *node) {
	o.nodes = append(o.nodes, n)
	n.index = len(o.nodes)
	for _, k := range slices.Sorted(maps.Keys(n.fields)) {
		o.visit(n.fields[k], false)
	}
	o.visit(n.elem, false)
}

// named counts the named types among those numbered.
func (o *typeOrder) named() int {
	named := 0
	for _, n := range o.nodes {
		if n.name != "" {
			named++
		}
	}
	return named
}
