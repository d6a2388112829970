package smp

import "sigs.k8s.io/kustomize/kyaml/yaml"

// CopyExpanded deep-copies a value with its aliases replaced by copies of
// what they stand for, for callers that copy values out of a document
// (structured-replacement's sources). The nodes reached through aliases
// count against the budget Merge uses, so an alias bomb is refused with
// Merge's error rather than expanded.
func CopyExpanded(n *yaml.Node) (*yaml.Node, error) {
	m := newMerger()
	return m.copyExpanded(n)
}

func (m *merger) copyExpanded(n *yaml.Node) (*yaml.Node, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		m.inAlias++
		defer func() { m.inAlias-- }()
		n = n.Alias
	}
	if m.inAlias > 0 {
		if err := m.spend(); err != nil {
			return nil, err
		}
	}
	c := *n
	c.Anchor = ""
	if err := m.copyContent(&c, n, (*merger).copyExpanded); err != nil {
		return nil, err
	}
	return &c, nil
}
