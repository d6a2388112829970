package replacement

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// nodeTree is a resource's kyaml nodes as fieldpath.Select sees them.
type nodeTree struct{}

var _ fieldpath.Tree[*yaml.Node] = nodeTree{}

func (nodeTree) Shape(n *yaml.Node) fieldpath.Shape {
	switch n.Kind {
	case yaml.MappingNode:
		return fieldpath.Map
	case yaml.SequenceNode:
		return fieldpath.List
	case yaml.ScalarNode:
		return fieldpath.Scalar
	}
	return fieldpath.Other
}

func (nodeTree) Len(n *yaml.Node) int {
	if n.Kind == yaml.MappingNode {
		return len(n.Content) / 2
	}
	return len(n.Content)
}

// Lookup finds the first entry with the key, as kyaml's own lookups do.
func (nodeTree) Lookup(n *yaml.Node, key string) (int, error) {
	for j := 0; j+1 < len(n.Content); j += 2 {
		if n.Content[j].Value == key {
			return j / 2, nil
		}
	}
	return -1, nil
}

// Element is a list element, an alias followed to its anchor.
func (nodeTree) Element(n *yaml.Node, i int) *yaml.Node {
	el := n.Content[i]
	if el.Kind == yaml.AliasNode && el.Alias != nil {
		return el.Alias
	}
	return el
}

func (nodeTree) Field(n *yaml.Node, key string) (string, bool) {
	v := field(n, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return "", false
	}
	return v.Value, true
}

func (nodeTree) Value(n *yaml.Node) string { return n.Value }

// child is the node at a position Select gave: a map entry's value or a
// list element.
func child(n *yaml.Node, pos int) *yaml.Node {
	if n.Kind == yaml.MappingNode {
		return n.Content[2*pos+1]
	}
	return n.Content[pos]
}

// children are the nodes at the positions Select gave.
func children(n *yaml.Node, positions []int) []*yaml.Node {
	out := make([]*yaml.Node, len(positions))
	for i, p := range positions {
		out[i] = child(n, p)
	}
	return out
}
