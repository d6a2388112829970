package span

import (
	yaml "go.yaml.in/yaml/v3"
)

// Kind is what a node holds.
type Kind uint8

// The kinds of node.
const (
	Scalar Kind = iota
	Map
	Seq
	Alias
)

// String names the kind for messages: "scalar", "map", "list", "alias".
func (k Kind) String() string {
	switch k {
	case Map:
		return "map"
	case Seq:
		return "list"
	case Alias:
		return "alias"
	}
	return "scalar"
}

// Style is how a scalar is written.
type Style uint8

// The styles of scalar.
const (
	Plain Style = iota
	Single
	Double
	Literal
	Folded
)

// Tags of the scalar types an edit distinguishes: yaml.v3's short tags.
const (
	StrTag   = "!!str"
	IntTag   = "!!int"
	FloatTag = "!!float"
	BoolTag  = "!!bool"
	NullTag  = "!!null"
)

// Node is one value of a parsed document and where it sits in the text.
// Spans are byte offsets [Start, End) into the document text and cover the
// value only: not a YAML anchor or tag before it, nor the comment after it.
type Node struct {
	Kind  Kind
	Style Style
	// Flow is true for JSON and for YAML flow collections ({...}, [...]);
	// CloseAt is then the offset of the closing bracket.
	Flow bool
	// InFlow is true for a YAML value inside a flow collection, where
	// plain scalars may not hold ",[]{}".
	InFlow bool
	// ExplicitTag is true when a YAML tag is written before the value.
	ExplicitTag bool

	Start, End int
	CloseAt    int

	// Value and Tag are a scalar's: Tag is StrTag, IntTag, ...; other
	// YAML tags are kept as written.
	Value string
	Tag   string

	// Keys (maps only) and Children, values or elements, are a
	// collection's entries in order.
	Keys     []*Node
	Children []*Node

	// lazy is true for a JSON map or list whose entries are not built yet
	// (Open builds them).
	lazy bool
	// keyIndex finds the keys of a large map (Tree.Key).
	keyIndex map[string]int

	// YAMLInfo is nil for JSON, which has many more, smaller nodes.
	*YAMLInfo
}

// YAMLInfo is what only YAML nodes need.
type YAMLInfo struct {
	// Source is the yaml.v3 node the node was read from.
	Source *yaml.Node
	// Col is the indentation (in bytes) of a block collection's keys or
	// dashes.
	Col int
	// ParentIndent is the indentation of the block that holds the value,
	// which fixes the content indentation of a block scalar with an
	// indentation indicator (-1 at the top level).
	ParentIndent int
	// HeaderEnd, HeaderRest and BlockIndent are a block scalar's: the
	// offset after the indicator characters (| or >, chomping,
	// indentation), the rest of the header line (a comment), and the
	// indentation of the content lines.
	HeaderEnd   int
	HeaderRest  string
	BlockIndent int
	// PropStart is where the value's anchor or tag starts (Start when it
	// has none).
	PropStart int
}

// Tree is a parsed document.
type Tree struct {
	Text string
	// Format is what the text was read as.
	Format Format
	Root   *Node
	// Newline is the line break the text uses.
	Newline string
	// Unit is a YAML document's indentation step (2 when it shows none).
	Unit int
	// TailBroken is set for a YAML text whose documents after the first
	// do not parse (ParseYAML reads the first; Verify sees that an edit
	// leaves the others as readable as they were).
	TailBroken bool
	// SeqIndented is 1 when a YAML document's block lists under a key are
	// indented, -1 when they are not, 0 when the document does not say.
	SeqIndented int

	// yamlBreaks is set for YAML, where NEL, LS and PS break lines too.
	yamlBreaks bool
	lines      []int // byte offset of the start of each line
	byYAML     map[*yaml.Node]*Node
}

// Anchored returns the node an alias stands for, nil when it has none.
func (t *Tree) Anchored(alias *Node) *Node {
	if alias.YAMLInfo == nil || alias.Source == nil {
		return nil
	}
	return t.byYAML[alias.Source.Alias]
}

// HasProperties reports whether a YAML value has an anchor or a tag
// written before it. A block map that has one cannot be emptied: its
// properties would be left without a value.
func (n *Node) HasProperties() bool {
	return n.YAMLInfo != nil && (n.Source.Anchor != "" || n.ExplicitTag)
}

// ToYAML returns a node's value as a yaml.v3 node.
func (t *Tree) ToYAML(n *Node) *yaml.Node {
	t.Open(n)
	if n.YAMLInfo != nil {
		if n.Source.Kind == yaml.AliasNode && n.Source.Alias != nil {
			return n.Source.Alias
		}
		return n.Source
	}
	switch n.Kind {
	case Map:
		return t.jsonMapToYAML(n)
	case Seq:
		return t.jsonListToYAML(n)
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: n.Tag, Value: n.Value}
}

// jsonMapToYAML is ToYAML of a JSON map: its keys are strings.
func (t *Tree) jsonMapToYAML(n *Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i, k := range n.Keys {
		out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: StrTag, Value: k.Value}, t.ToYAML(n.Children[i]))
	}
	return out
}

// jsonListToYAML is ToYAML of a JSON list.
func (t *Tree) jsonListToYAML(n *Node) *yaml.Node {
	out := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, c := range n.Children {
		out.Content = append(out.Content, t.ToYAML(c))
	}
	return out
}
