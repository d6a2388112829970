package generator

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// knowSecretLiterals registers the literals of every secretGenerator in
// the config with the runner before anything else reads the config, so
// that no message, a config decoding error included, shows one. The raw
// nodes are read: the config has not been decoded yet.
func knowSecretLiterals(req *fnrun.Request) {
	if req.Config == nil {
		return
	}
	root := req.Config.YNode()
	if root == nil || root.Kind != yaml.MappingNode {
		return
	}
	if req.Config.GetApiVersion() == kindBuiltin {
		if req.Config.GetKind() == "SecretGenerator" {
			knowLiterals(req, field(root, "literals"))
		}
		return
	}
	if gens := field(root, "secretGenerator"); gens != nil {
		for _, g := range gens.Content {
			knowLiterals(req, field(g, "literals"))
		}
	}
}

// knowLiterals registers literal values: "key=value" strings (the value,
// and the whole text, quotes and all) and one-entry maps (their values).
func knowLiterals(req *fnrun.Request, lits *yaml.Node) {
	if lits == nil {
		return
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			req.Secret(n.Value)
			if _, v, ok := strings.Cut(n.Value, "="); ok {
				req.Secret(v, strings.Trim(v, `"'`))
			}
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
	walk(lits)
}

// field returns the value of a map's key, or nil.
func field(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// secretReader reads a secretGenerator's files and env files, registering
// what it reads before the content goes anywhere: the whole file, each
// line, and each env line's value after the first "=".
func secretReader(req *fnrun.Request) func(string) ([]byte, error) {
	return func(path string) ([]byte, error) {
		b, err := req.Files().ReadFile(path)
		if err != nil {
			return nil, err
		}
		req.Secret(string(b))
		for _, line := range strings.Split(string(b), "\n") {
			if _, v, ok := strings.Cut(line, "="); ok {
				req.Secret(v, strings.TrimSpace(v))
			}
		}
		return b, nil
	}
}
