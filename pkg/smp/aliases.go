package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// fixAliases makes every alias in the document refer to an anchor defined
// before it, as YAML requires. A merge that removed or reordered nodes with
// anchors can break that; such an alias is replaced by a copy of the value it
// stood for, so the document keeps its meaning and stays valid YAML. The
// encoder writes an alias by anchor name, so a definition counts only when it
// is the latest one of that name.
func fixAliases(doc *yaml.Node) {
	anchors{}.walk(doc)
}

// anchors holds the latest node defined for each anchor name met so far.
type anchors map[string]*yaml.Node

// walk checks the aliases in n, in document order, and replaces those
// that do not refer to the latest definition of their anchor.
func (a anchors) walk(n *yaml.Node) {
	if n.Anchor != "" {
		a[n.Anchor] = n
	}
	for i, c := range n.Content {
		if c.Kind != yaml.AliasNode {
			a.walk(c)
			continue
		}
		if a.stale(c) {
			cp := expand(c.Alias, 0)
			n.Content[i] = cp
			a.walk(cp)
		}
	}
}

// stale reports whether alias c would not be read back as the value it
// stands for: its anchor is not defined before it, or is redefined since.
func (a anchors) stale(c *yaml.Node) bool {
	return c.Alias != nil && (a[c.Value] != c.Alias || c.Value != c.Alias.Anchor)
}

// expand deep-copies a value for fixAliases. Anchors are dropped; aliases
// inside are kept and checked by the caller's walk.
func expand(n *yaml.Node, depth int) *yaml.Node {
	c := *n
	c.Anchor = ""
	if n.Kind == yaml.AliasNode || depth > 10000 {
		return &c
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = expand(k, depth+1)
		}
	}
	return &c
}
