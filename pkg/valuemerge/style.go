package valuemerge

import yaml "go.yaml.in/yaml/v3"

// What a change writes in place of a value takes that value's style where
// the overlay's spelling says nothing of its own: a block list replaced
// stays block though the overlay wrote [a, b], and a string replacing a
// quoted one stays quoted though the overlay wrote it plain (as strategic
// merge keeps the style of a string whose value it sets). A style the
// overlay did choose (a quoted string, a flow list inside a block one) is
// written as given.

// replacedStyle is b as it is written where a was, in a YAML document: a
// list given in flow style over a block list, in block style; a plain
// string over a quoted string, quoted as that one.
func (w *writer) replacedStyle(a, b *yaml.Node) *yaml.Node {
	switch {
	case !w.yaml():
		return b
	case a.Kind == yaml.SequenceNode && b.Kind == yaml.SequenceNode && isBlock(a) && !isBlock(b):
		return blockCopy(b)
	case a.Kind == yaml.ScalarNode && b.Kind == yaml.ScalarNode && b.Style == 0 && quoted(a):
		c := *b
		c.Style = a.Style & (yaml.DoubleQuotedStyle | yaml.SingleQuotedStyle)
		return &c
	}
	return b
}

// hosted is element v of a list the overlay wrote in flow style (flow),
// as it is appended to the block list a: in block style too.
func (w *writer) hosted(a, v *yaml.Node, flow bool) *yaml.Node {
	if !w.yaml() || !flow || !isBlock(a) {
		return v
	}
	return blockCopy(v)
}

// flowOver reports whether b, a list the overlay wrote in flow style,
// replaces the block list a.
func (w *writer) flowOver(a, b *yaml.Node) bool {
	return w.yaml() && isBlock(a) && !isBlock(b)
}

// isBlock reports whether n is a map or list in block style.
func isBlock(n *yaml.Node) bool {
	return (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && n.Style&yaml.FlowStyle == 0
}

// quoted reports whether the scalar n is written in quotes.
func quoted(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
}

// blockCopy copies v with its maps and lists, and theirs, in block style:
// inside a flow list every value is flow, a style the overlay chose once
// for the whole.
func blockCopy(v *yaml.Node) *yaml.Node {
	c := *v
	c.Style &^= yaml.FlowStyle
	if len(v.Content) > 0 {
		c.Content = make([]*yaml.Node, len(v.Content))
		for i, k := range v.Content {
			c.Content[i] = blockCopy(k)
		}
	}
	return &c
}
