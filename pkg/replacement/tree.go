package replacement

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// literal is a resource as the setter walks it: yamltree.Tree, except
// that aliases are not followed. Writing through one would change every
// place its anchor is used, so an alias is a node no segment goes into (a
// dead end, which the setter reports), and the walk's children are the
// nodes as they are.
type literal struct{ yamltree.Tree }

var _ fieldpath.Walkable[*yaml.Node] = literal{}

// Shape says what n is; an alias is nothing a segment can go into.
func (literal) Shape(n *yaml.Node) fieldpath.Shape {
	if n.Kind == yaml.AliasNode {
		return fieldpath.Other
	}
	return yamltree.Tree{}.Shape(n)
}

// Child is the node at a position Select gave, as it is: a map entry's
// value or a list element.
func (literal) Child(n *yaml.Node, pos int) *yaml.Node {
	if n.Kind == yaml.MappingNode {
		return n.Content[2*pos+1]
	}
	return n.Content[pos]
}
