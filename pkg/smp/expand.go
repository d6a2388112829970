package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// CopyExpanded deep-copies a value with its aliases replaced by copies of
// what they stand for, for callers that copy values out of a document
// (structured-replacement's sources). The nodes reached through aliases
// are charged to b (nil: a budget of its own), so an alias bomb is
// refused with Merge's error rather than expanded.
func CopyExpanded(n *yaml.Node, b *budget.Budget) (*yaml.Node, error) {
	m := newMerger(b)
	return m.copyExpanded(n)
}

func (m *merger) copyExpanded(n *yaml.Node) (*yaml.Node, error) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		m.inAlias++
		defer func() { m.inAlias-- }()
		n = n.Alias
	}
	if m.inAlias > 0 {
		if err := m.spend(n); err != nil {
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
