package yamltree

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Describe says what a node is, for messages, in the words every message
// uses: "a map", "a list", "null", "a string" ("the empty string"), "the
// number 5", "the boolean true", "the timestamp 2001-12-14". Aliases are
// followed. A string's text is never shown (it may be long, or a Secret's);
// DescribeSecret shows no value at all.
func Describe(n *yaml.Node) string { return describe(n, false) }

// DescribeSecret is Describe, unless secret is set (the value is a
// Secret's, or a config's, which may carry a secretGenerator's literals):
// then no value is shown, "a number", "a boolean", "a string" even when it
// is empty.
func DescribeSecret(n *yaml.Node, secret bool) string { return describe(n, secret) }

// shownScalars are the scalars Describe shows the value of, by tag.
var shownScalars = map[string]string{
	yaml.NodeTagInt: "number", yaml.NodeTagFloat: "number", yaml.NodeTagBool: "boolean", "!!timestamp": "timestamp",
}

func describe(n *yaml.Node, secret bool) string {
	n = Resolve(n)
	switch {
	case n == nil:
		return "nothing"
	case n.Kind == yaml.MappingNode:
		return "a map"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.AliasNode:
		return "an alias" // one that stands for nothing
	case n.Kind == yaml.DocumentNode:
		return "an empty document"
	}
	tag := n.ShortTag()
	switch typ, shown := shownScalars[tag]; {
	case tag == yaml.NodeTagNull:
		return "null"
	case tag == yaml.NodeTagString && n.Value == "" && !secret:
		return "the empty string"
	case tag == yaml.NodeTagString:
		return "a string"
	case shown && secret:
		return "a " + typ
	case shown:
		return "the " + typ + " " + cut(n.Value)
	case strings.HasPrefix(tag, "!!"):
		return "a " + strings.TrimPrefix(tag, "!!") + " value" // !!binary
	}
	return "a value tagged " + tag
}

// cut shortens a value shown in a message (an explicit tag may put any
// text there).
func cut(v string) string {
	const most = 40
	if r := []rune(v); len(r) > most {
		return string(r[:most]) + "…"
	}
	return v
}
