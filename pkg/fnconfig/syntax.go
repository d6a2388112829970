package fnconfig

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlerr"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// SyntaxError explains a YAML syntax error yaml.v3 gave for an entry's
// content: the line of the user's file where the content stops being YAML,
// that line as written, and what is wrong in words. The content is text,
// either the entry's field inline in config (entry "patches[2]", field
// "patch") or the file path it named (path != ""). Any other error comes
// back as it is.
func SyntaxError(config *yaml.RNode, err error, text, entry, field, path string) error {
	s, ok := yamlerr.Locate([]byte(text), err)
	if !ok {
		return err
	}
	if path != "" {
		return fmt.Errorf("%s, %v", path, s)
	}
	if config != nil {
		if n := configNode(config.YNode(), entry+"."+field); n != nil {
			lines := linesOf(config)
			if at := lines.line(n); at > 0 && lines.isLiteral(n) {
				// a literal block's text starts on the line after its "|"
				return fmt.Errorf("%s: %s: %s%s", field, lines.lineAt(at+s.Line), s.Quoted(), s.Problem)
			}
		}
	}
	return fmt.Errorf("%s, line %d of its text: %s%s", field, s.Line, s.Quoted(), s.Problem)
}

// configNode finds the node an entry path of our own messages names
// ("patches[2].patch") in the config; nil when there is none.
func configNode(n *yaml.Node, path string) *yaml.Node {
	n = configTop(n)
	for _, part := range strings.Split(path, ".") {
		if n = pathStep(n, part); n == nil {
			return nil
		}
	}
	return n
}

// pathStep follows one part of an entry path from n: a key, the indexes
// after it, or both ("patches[2]", "[0][1]").
func pathStep(n *yaml.Node, part string) *yaml.Node {
	key, rest, _ := strings.Cut(part, "[")
	if key != "" {
		if n.Kind != yaml.MappingNode {
			return nil
		}
		n = yamltree.Lookup(n, key)
	}
	for n != nil && rest != "" {
		n, rest = element(n, rest)
	}
	return n
}

// element is the element of the list n that the index at the start of
// rest names ("2]", "2][0]"), and the rest after its "]" and any "[";
// nil when there is no such element.
func element(n *yaml.Node, rest string) (*yaml.Node, string) {
	num, after, ok := strings.Cut(rest, "]")
	i, err := strconv.Atoi(num)
	if !ok || err != nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
		return nil, ""
	}
	return n.Content[i], strings.TrimPrefix(after, "[")
}
