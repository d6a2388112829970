package fnrun

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/redact"
)

// Secret registers values the transform knows to be secret beyond the
// Secrets among the items, which the runner knows of itself: a
// secretGenerator's literals, env files and files, a piece of a Secret's
// value a replacement split off. No result the run reports carries them
// (see package redact).
func (r *Request) Secret(values ...string) {
	r.secretSet().Add(values...)
}

func (r *Request) secretSet() *redact.Set {
	if r.secrets == nil {
		r.secrets = &redact.Set{}
	}
	return r.secrets
}

// secretsOf is the set of the Secret values among items, for errors
// reported outside a run.
func secretsOf(items []*yaml.RNode) *redact.Set {
	var r Request
	r.knowSecrets(items)
	return r.secrets
}

// knowSecrets registers the values of every Secret among items: each
// stringData value, each data value as written and decoded, whatever their
// shape (a hostile input may nest them).
func (r *Request) knowSecrets(items []*yaml.RNode) {
	s := r.secretSet()
	for _, it := range items {
		root := it.YNode()
		if root == nil || root.Kind != yaml.MappingNode {
			continue
		}
		if yaml.NewRNode(root).GetKind() != "Secret" {
			continue
		}
		for i := 0; i+1 < len(root.Content); i += 2 {
			switch root.Content[i].Value {
			case "stringData":
				eachScalar(root.Content[i+1], s.Add)
			case "data":
				eachScalar(root.Content[i+1], s.AddBase64)
			}
		}
	}
}

// eachScalar calls add for every scalar value below n (the values of maps,
// not their keys); aliases are not followed.
func eachScalar(n *yaml.Node, add func(...string)) {
	switch n.Kind {
	case yaml.ScalarNode:
		add(n.Value)
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			eachScalar(n.Content[i], add)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			eachScalar(c, add)
		}
	}
}
