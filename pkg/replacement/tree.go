package replacement

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// child is the node at a position fieldpath.Select (through yamltree.Tree)
// gave: a map entry's value or a list element, as it is. Unlike
// yamltree.Child it does not follow an alias: the setter refuses to write
// through one, which would change every place the anchor is used.
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
