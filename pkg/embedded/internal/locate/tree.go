package locate

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// docTree is a document's span tree as fieldpath.Select sees it, while
// resolving segment seg (for the messages of lookups that fail).
type docTree struct {
	d   *Document
	seg int
}

var _ fieldpath.Tree[*span.Node] = docTree{}

// Shape tells a map, a list and a scalar apart (an alias is Other).
func (t docTree) Shape(n *span.Node) fieldpath.Shape {
	switch n.Kind {
	case span.Map:
		return fieldpath.Map
	case span.Seq:
		return fieldpath.List
	case span.Scalar:
		return fieldpath.Scalar
	}
	return fieldpath.Other
}

// Len is the number of entries of a map or list.
func (t docTree) Len(n *span.Node) int {
	t.d.Open(n)
	return len(n.Children)
}

// Lookup finds a map's key (FindKey).
func (t docTree) Lookup(n *span.Node, key string) (int, error) { return t.d.FindKey(n, key, t.seg) }

// Element is a list element, an alias followed to its anchor (nil when it
// cannot be followed).
func (t docTree) Element(n *span.Node, i int) *span.Node {
	t.d.Open(n)
	el := n.Children[i]
	if el.Kind == span.Alias {
		if el = t.d.Anchored(el); el == nil {
			return &span.Node{Kind: span.Alias}
		}
	}
	return el
}

// Field returns the scalar value of a map element's key, for [key=value].
func (t docTree) Field(n *span.Node, key string) (string, bool) {
	t.d.Open(n)
	for j, k := range n.Keys {
		if k.Kind == span.Scalar && k.Value == key {
			v := n.Children[j]
			return v.Value, v.Kind == span.Scalar
		}
	}
	return "", false
}

// Value is a scalar element's value, for [=value].
func (t docTree) Value(n *span.Node) string { return n.Value }
