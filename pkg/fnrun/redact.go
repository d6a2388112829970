package fnrun

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/redact"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
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

// maxListDepth bounds the Lists within Lists whose Secrets are found.
const maxListDepth = 8

// knowSecrets registers the values of every Secret among items, and in
// the items of Lists among them (kpt sends a SecretList as one item): each
// stringData value, each data value as written and decoded, whatever
// their shape, as a YAML reader reads them: aliases resolved, << keys
// followed, every copy of a repeated key (a hostile input may do all of
// that to hide a value).
func (r *Request) knowSecrets(items []*yaml.RNode) {
	s := r.secretSet()
	for _, it := range items {
		knowResource(s, it.YNode(), 0)
	}
}

func knowResource(s *redact.Set, root *yaml.Node, depth int) {
	root = yamltree.Resolve(root)
	if root == nil || root.Kind != yaml.MappingNode || depth > maxListDepth {
		return
	}
	secret, list := false, false
	eachField(root, "kind", 0, func(k *yaml.Node) {
		k = yamltree.Resolve(k)
		secret = secret || k.Value == "Secret"
		list = list || strings.HasSuffix(k.Value, "List")
	})
	if secret {
		eachField(root, "stringData", 0, func(v *yaml.Node) { eachScalar(v, s.Add) })
		eachField(root, "data", 0, func(v *yaml.Node) { eachScalar(v, s.AddBase64) })
	}
	if list {
		eachField(root, "items", 0, func(v *yaml.Node) {
			if v = yamltree.Resolve(v); v.Kind == yaml.SequenceNode {
				for _, it := range v.Content {
					knowResource(s, it, depth+1)
				}
			}
		})
	}
}

// eachField calls do with the value of every entry of map m under key,
// and of the maps its << keys merge (depth bounds their nesting).
func eachField(m *yaml.Node, key string, depth int, do func(*yaml.Node)) {
	m = yamltree.Resolve(m)
	if m == nil || depth > maxListDepth {
		return
	}
	if m.Kind == yaml.SequenceNode { // << takes a list of maps too
		for _, c := range m.Content {
			eachField(c, key, depth+1, do)
		}
	}
	if m.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := yamltree.Resolve(m.Content[i])
		switch {
		case inherit.IsKey(k):
			eachField(m.Content[i+1], key, depth+1, do)
		case k.Value == key:
			do(m.Content[i+1])
		}
	}
}

// eachScalar calls add for every scalar value below n (the values of maps,
// not their keys), aliases followed, each node once.
func eachScalar(n *yaml.Node, add func(...string)) {
	seen := map[*yaml.Node]bool{}
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n = yamltree.Resolve(n); n == nil || seen[n] {
			return
		}
		seen[n] = true
		switch n.Kind {
		case yaml.ScalarNode:
			add(n.Value)
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				walk(n.Content[i])
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	walk(n)
}
