package treediff

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Copy is a tree as it was before a change: a deep copy that remembers
// which node each of its nodes copies, so that Diff, given Copy.Origin,
// aligns the list elements a change kept with those they were. A copy
// costs three allocations (the nodes, the nodes copied, their children),
// whatever the size of the tree, and none when Take reuses a Copy.
type Copy struct {
	root  *yaml.Node
	nodes []yaml.Node
	orig  []*yaml.Node
	kids  []*yaml.Node // the copies' children, in one piece
	// of maps an original node to its copy, built on the first Origin.
	of    map[*yaml.Node]*yaml.Node
	built bool
}

// Snapshot copies the tree below n (nil: an empty Copy). Aliases are
// copied as aliases, of the copy of their anchor when it is in the tree;
// nothing is expanded. A tree of more than MaxNodes nodes is ErrTooLarge.
func Snapshot(n *yaml.Node) (*Copy, error) {
	c := &Copy{}
	return c, c.Take(n)
}

// Take makes c a copy of the tree below n, as Snapshot does, reusing the
// memory of what c copied before: a caller copying one resource after the
// other, each compared before the next is taken, allocates once for the
// largest, and counts the nodes of a tree only when it does not fit.
func (c *Copy) Take(n *yaml.Node) error {
	c.root, c.built = nil, false
	c.nodes, c.orig = c.nodes[:0], c.orig[:0]
	if n == nil || c.fill(n) {
		return nil
	}
	c.root, c.nodes, c.orig = nil, c.nodes[:0], c.orig[:0]
	count, links := 0, 0
	if !countNodes(n, &count, &links) {
		return ErrTooLarge
	}
	// room for a little more, so that resources growing one by one are
	// not counted each time; never past MaxNodes, so that a tree larger
	// than that is always counted, and refused
	count, links = min(count+count/4, MaxNodes), links+links/4
	c.nodes, c.orig = make([]yaml.Node, 0, count), make([]*yaml.Node, 0, count)
	c.kids = make([]*yaml.Node, links)
	c.fill(n)
	return nil
}

// fill copies the tree below n into c's memory; false, with c left
// partly filled, when it does not fit.
func (c *Copy) fill(n *yaml.Node) bool {
	if cap(c.nodes) == 0 {
		return false
	}
	kids := c.kids
	c.root = c.add(n)
	aliases := false
	// Breadth first: a node's children are copied next to each other, and
	// each copy's Content is a piece of kids. The slices never grow: the
	// copies point into them.
	for k := 0; k < len(c.nodes); k++ {
		cp := &c.nodes[k]
		aliases = aliases || cp.Kind == yaml.AliasNode
		if len(cp.Content) == 0 {
			continue
		}
		if len(kids) < len(cp.Content) || cap(c.nodes)-len(c.nodes) < len(cp.Content) {
			return false
		}
		content := kids[:len(cp.Content):len(cp.Content)]
		kids = kids[len(cp.Content):]
		for j, child := range cp.Content {
			content[j] = c.add(child)
		}
		cp.Content = content
	}
	if aliases {
		c.relink()
	}
	return true
}

// add appends a copy of n, whose Content still holds n's children.
func (c *Copy) add(n *yaml.Node) *yaml.Node {
	c.nodes = append(c.nodes, *n)
	c.orig = append(c.orig, n)
	return &c.nodes[len(c.nodes)-1]
}

// relink points the aliases of the copy at the copies of their anchors.
func (c *Copy) relink() {
	for k := range c.nodes {
		if cp := &c.nodes[k]; cp.Kind == yaml.AliasNode {
			if to := c.Origin(cp.Alias); to != nil {
				cp.Alias = to
			}
		}
	}
}

// countNodes counts the nodes below n (aliases not followed) and their
// children's links, false past MaxNodes.
func countNodes(n *yaml.Node, count, links *int) bool {
	*count++
	*links += len(n.Content)
	if *count > MaxNodes {
		return false
	}
	for _, child := range n.Content {
		if !countNodes(child, count, links) {
			return false
		}
	}
	return true
}

// Root is the copy of the tree's root; nil for an empty Copy.
func (c *Copy) Root() *yaml.Node { return c.root }

// Origin is the copy of n, a node of the tree as it is now, when n was in
// the tree copied; nil otherwise. It is Options.Origin for a Diff of the
// copy against the tree.
func (c *Copy) Origin(n *yaml.Node) *yaml.Node {
	if !c.built {
		if c.of == nil {
			c.of = make(map[*yaml.Node]*yaml.Node, len(c.orig))
		}
		clear(c.of)
		for k, o := range c.orig {
			c.of[o] = &c.nodes[k]
		}
		c.built = true
	}
	return c.of[n]
}
