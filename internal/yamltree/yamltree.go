package yamltree

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Tree is yaml nodes as fieldpath.Select sees them. Aliases are followed.
type Tree struct{}

var _ fieldpath.Walkable[*yaml.Node] = Tree{}

// Shape says what n is.
func (Tree) Shape(n *yaml.Node) fieldpath.Shape {
	switch Resolve(n).Kind {
	case yaml.MappingNode:
		return fieldpath.Map
	case yaml.SequenceNode:
		return fieldpath.List
	case yaml.ScalarNode:
		return fieldpath.Scalar
	}
	return fieldpath.Other
}

// Len is the number of entries of a map or elements of a list.
func (Tree) Len(n *yaml.Node) int {
	n = Resolve(n)
	if n.Kind == yaml.MappingNode {
		return len(n.Content) / 2
	}
	return len(n.Content)
}

// Lookup finds the first entry with the key, as kyaml's own lookups do.
func (Tree) Lookup(n *yaml.Node, key string) (int, error) {
	n = Resolve(n)
	for j := 0; j+1 < len(n.Content); j += 2 {
		if Resolve(n.Content[j]).Value == key {
			return j / 2, nil
		}
	}
	return -1, nil
}

// Element is the i-th element of a list.
func (Tree) Element(n *yaml.Node, i int) *yaml.Node { return Resolve(Resolve(n).Content[i]) }

// Field is the value of key in map n when it is a scalar.
func (t Tree) Field(n *yaml.Node, key string) (string, bool) {
	j, _ := t.Lookup(n, key)
	if j < 0 {
		return "", false
	}
	v := Resolve(Resolve(n).Content[2*j+1])
	if v.Kind != yaml.ScalarNode {
		return "", false
	}
	return v.Value, true
}

// Value is a scalar's value.
func (Tree) Value(n *yaml.Node) string { return Resolve(n).Value }

// Child is the node at a position Select gave (Child, the function), for
// fieldpath's walk.
func (Tree) Child(n *yaml.Node, pos int) *yaml.Node { return Child(n, pos) }

// Key is the key of map n's entry at pos.
func (Tree) Key(n *yaml.Node, pos int) string { return Resolve(Resolve(n).Content[2*pos]).Value }

// Child is the node at a position Select gave: a map entry's value or a
// list element (aliases followed).
func Child(n *yaml.Node, pos int) *yaml.Node {
	n = Resolve(n)
	if n.Kind == yaml.MappingNode {
		return Resolve(n.Content[2*pos+1])
	}
	return Resolve(n.Content[pos])
}

// maxAliasChain bounds alias-to-alias chains (only hand-built trees have
// them).
const maxAliasChain = 32

// Resolve follows aliases to the node they stand for; a document node
// stands for its content.
func Resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < maxAliasChain; i++ {
		switch {
		case n.Kind == yaml.AliasNode && n.Alias != nil:
			n = n.Alias
		case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		default:
			return n
		}
	}
	return n
}

// Lookup is the value of key in map m (aliases followed on the way: the
// map and its keys), nil when m is no map or has no such key. Of repeated
// keys the first wins, as in kyaml.
func Lookup(m *yaml.Node, key string) *yaml.Node {
	m = Resolve(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	if j, _ := (Tree{}).Lookup(m, key); j >= 0 {
		return m.Content[2*j+1]
	}
	return nil
}

// IsNull reports whether n (aliases followed) is a null scalar: null, ~,
// an empty value, or one tagged !!null.
func IsNull(n *yaml.Node) bool {
	n = Resolve(n)
	return n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagNull
}
