package generator

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The node edits and values the generator writes, as kustomize writes them.

// setKey sets a map key, replacing the value node in place (the key keeps
// its position and comments) or appending the key. An equal string value
// is left as written.
func setKey(m *yaml.RNode, key string, v *yaml.RNode) {
	c := m.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			c[i+1] = kept(c[i+1], v.YNode())
			return
		}
	}
	m.YNode().Content = append(c, stringNode(key).YNode(), v.YNode())
}

// kept is the value node to put in old's place: old itself when it is the
// same string, else nv with old's line comment and, where nv can be
// written so, how old was written (quotes, block style).
func kept(old, nv *yaml.Node) *yaml.Node {
	if old.Kind != yaml.ScalarNode {
		nv.LineComment = old.LineComment
		return nv
	}
	if old.Value == nv.Value && old.ShortTag() == yaml.NodeTagString {
		return old
	}
	if old.Style != 0 && (old.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || !strings.Contains(nv.Value, "\n")) {
		nv.Style = old.Style
	}
	nv.LineComment = old.LineComment
	return nv
}

// deleteKey removes a map key; it reports whether it was there.
func deleteKey(m *yaml.RNode, key string) bool {
	if m == nil {
		return false
	}
	c := m.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			m.YNode().Content = append(c[:i:i], c[i+2:]...)
			return true
		}
	}
	return false
}

// mapField is the value of a resource's field when it is a map, or nil.
func mapField(res *yaml.RNode, name string) *yaml.RNode {
	f := res.Field(name)
	if f == nil || f.Value == nil || f.Value.YNode().Kind != yaml.MappingNode {
		return nil
	}
	return f.Value
}

// stringValue is the text of a map's key, and whether the map has it.
func stringValue(m *yaml.RNode, key string) (string, bool) {
	f := m.Field(key)
	if f == nil {
		return "", false
	}
	return f.Value.YNode().Value, true
}

// valueNode is a data value as kustomize writes it: a string, in literal
// block style when it has several lines.
func valueNode(s string) *yaml.RNode {
	n := stringNode(s)
	if strings.Contains(s, "\n") {
		n.YNode().Style = yaml.LiteralStyle
	}
	return n
}

// stringNode is a string scalar, double-quoted where a YAML 1.1 reader
// (kubectl, the API server, PyYAML) would take it for something else
// ("yes", "12:30:45").
func stringNode(s string) *yaml.RNode {
	n := yaml.NewStringRNode(s)
	scalar.QuoteIfNeeded(n.YNode())
	return n
}

func trueNode() *yaml.RNode {
	return yaml.NewRNode(&yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: "true"})
}

// isText tells whether a value can go in a ConfigMap's data.
func isText(s string) bool { return utf8.ValidString(s) }

// encodeBase64 writes base64 as kustomize does in generated Secrets and
// binaryData: lines of 70 characters, each ending in a newline once there
// is more than one line. (The hash depends on it.)
func encodeBase64(s string) string {
	const width = 70
	enc := base64.StdEncoding.EncodeToString([]byte(s))
	if len(enc) < width {
		return enc
	}
	var b strings.Builder
	for i := 0; i < len(enc); i += width {
		b.WriteString(enc[i:min(i+width, len(enc))])
		b.WriteByte('\n')
	}
	return b.String()
}

// decodeBase64 reads a Secret value, which may be broken into lines.
func decodeBase64(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	return string(b), err
}
