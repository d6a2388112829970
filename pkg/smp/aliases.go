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
	defined := map[string]*yaml.Node{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Anchor != "" {
			defined[n.Anchor] = n
		}
		for i, c := range n.Content {
			if c.Kind == yaml.AliasNode {
				if c.Alias != nil && (defined[c.Value] != c.Alias || c.Value != c.Alias.Anchor) {
					cp := expand(c.Alias, 0)
					n.Content[i] = cp
					walk(cp)
				}
				continue
			}
			walk(c)
		}
	}
	walk(doc)
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
