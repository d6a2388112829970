package embedded

import "github.com/patchwork-krm/patchwork/pkg/fieldpath"

// docTree is a document's span tree as fieldpath.Select sees it, while
// resolving segment seg (for the messages of lookups that fail).
type docTree struct {
	d   *doc
	seg int
}

var _ fieldpath.Tree[*node] = docTree{}

func (t docTree) Shape(n *node) fieldpath.Shape {
	switch n.kind {
	case mapKind:
		return fieldpath.Map
	case seqKind:
		return fieldpath.List
	case scalarKind:
		return fieldpath.Scalar
	}
	return fieldpath.Other
}

func (t docTree) Len(n *node) int {
	t.d.open(n)
	return len(n.children)
}

func (t docTree) Lookup(n *node, key string) (int, error) { return t.d.findKey(n, key, t.seg) }

// Element is a list element, an alias followed to its anchor (nil when it
// cannot be followed).
func (t docTree) Element(n *node, i int) *node {
	t.d.open(n)
	el := n.children[i]
	if el.kind == aliasKind {
		if el = t.d.byYAML[el.yn.Alias]; el == nil {
			return &node{kind: aliasKind}
		}
	}
	return el
}

func (t docTree) Field(n *node, key string) (string, bool) {
	t.d.open(n)
	for j, k := range n.keys {
		if k.kind == scalarKind && k.value == key {
			v := n.children[j]
			return v.value, v.kind == scalarKind
		}
	}
	return "", false
}

func (t docTree) Value(n *node) string { return n.value }
