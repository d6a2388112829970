package generator

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// knowSecretLiterals registers the literals of every secretGenerator in
// the config with the runner before anything else reads the config, so
// that no message, a config decoding error included, shows one.
func knowSecretLiterals(req *fnrun.Request) {
	for _, lits := range secretLiterals(req.Config) {
		knowLiterals(req, lits)
	}
}

// secretLiterals are the literals of the config's secretGenerators, read
// from the raw nodes: the config has not been decoded yet.
func secretLiterals(config *yaml.RNode) []*yaml.Node {
	if root := config.YNode(); root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	if config.GetApiVersion() == kindBuiltin {
		if config.GetKind() == "SecretGenerator" {
			return []*yaml.Node{fieldNode(config, "literals")}
		}
		return nil
	}
	gens := fieldNode(config, "secretGenerator")
	if gens == nil {
		return nil
	}
	var lits []*yaml.Node
	for _, g := range gens.Content {
		lits = append(lits, fieldNode(yaml.NewRNode(g), "literals"))
	}
	return lits
}

// fieldNode is the value of a map's field, or nil.
func fieldNode(m *yaml.RNode, name string) *yaml.Node {
	if f := m.Field(name); f != nil {
		return f.Value.YNode()
	}
	return nil
}

// knowLiterals registers the literals at or below n: "key=value" strings
// and the values of one-entry maps.
func knowLiterals(req *fnrun.Request, n *yaml.Node) {
	if n == nil {
		return
	}
	if n.Kind == yaml.ScalarNode {
		knowLiteral(req, n.Value)
		return
	}
	for _, c := range values(n) {
		knowLiterals(req, c)
	}
}

// knowLiteral registers a literal: after its first "=", the value, quotes
// and all and without them; without "=", the whole text. The key is no
// secret (messages name it), and every piece of a value is (see package
// redact), so a literal quoted whole reads "key=<redacted>".
func knowLiteral(req *fnrun.Request, s string) {
	if _, v, ok := strings.Cut(s, "="); ok {
		req.Secret(v, strings.Trim(v, `"'`))
		return
	}
	req.Secret(s)
}

// values are the values of a map, the elements of a list, or nothing.
func values(n *yaml.Node) []*yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		var vs []*yaml.Node
		for i := 1; i < len(n.Content); i += 2 {
			vs = append(vs, n.Content[i])
		}
		return vs
	case yaml.SequenceNode:
		return n.Content
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
