package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// tagOf returns the short tag of a node; the fast path covers what the parser
// and kyaml produce.
func tagOf(n *yaml.Node) string {
	switch n.Tag {
	case yaml.NodeTagString, yaml.NodeTagInt, yaml.NodeTagNull, yaml.NodeTagBool,
		yaml.NodeTagFloat, yaml.NodeTagMap, yaml.NodeTagSeq:
		return n.Tag
	}
	return n.ShortTag()
}

// isMap and isSeq look through aliases.
func isMap(n *yaml.Node) bool {
	n = yamltree.Resolve(n)
	return n != nil && n.Kind == yaml.MappingNode
}

func isSeq(n *yaml.Node) bool {
	n = yamltree.Resolve(n)
	return n != nil && n.Kind == yaml.SequenceNode
}

// scalarEqual compares two scalars as data: same tag and same text (all nulls
// are equal). `80` and `"80"` differ, as they do for the API server.
func scalarEqual(a, b *yaml.Node) bool {
	ta, tb := tagOf(a), tagOf(b)
	if ta == yaml.NodeTagNull && tb == yaml.NodeTagNull {
		return true
	}
	return ta == tb && a.Value == b.Value
}

// Equal compares two nodes as data: map key order, styles and comments do
// not matter, list order does; aliases stand for their anchors' values and
// every null is one value.
func Equal(a, b *yaml.Node) bool { return deepEqual(a, b) }

func deepEqual(a, b *yaml.Node) bool {
	a, b = yamltree.Resolve(a), yamltree.Resolve(b)
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return scalarEqual(a, b)
	case yaml.SequenceNode:
		return equalContent(a.Content, b.Content)
	case yaml.MappingNode:
		return equalMaps(a, b)
	}
	return false
}

// equalContent compares two lists element by element.
func equalContent(a, b []*yaml.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !deepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

// equalMaps compares two maps key by key, in any order.
func equalMaps(a, b *yaml.Node) bool {
	if len(a.Content) != len(b.Content) {
		return false
	}
	for i := 0; i+1 < len(a.Content); i += 2 {
		bv := yamltree.Lookup(b, yamltree.Resolve(a.Content[i]).Value)
		if bv == nil || !deepEqual(a.Content[i+1], bv) {
			return false
		}
	}
	return true
}

// keyIndex returns the index in m.Content of the key node named k, or -1.
// Only scalar keys match; the first of duplicate keys wins.
func keyIndex(m *yaml.Node, k string) int {
	c := m.Content
	for i := 0; i+1 < len(c); i += 2 {
		kn := c[i]
		if kn.Kind == yaml.AliasNode {
			kn = yamltree.Resolve(kn)
		}
		if kn.Kind == yaml.ScalarNode && kn.Value == k {
			return i
		}
	}
	return -1
}

// keyIndexOf is keyIndex for a key node of the patch: where no key is
// spelled alike, a key spelled otherwise that YAML readers take for the
// same key (00 and 0, ~ and null, "1" and 1) is the one. Keys that read as
// the strings they spell, as a resource's field names do, cost nothing
// more.
func keyIndexOf(m, pk *yaml.Node) int {
	pk = yamltree.Resolve(pk)
	if i := keyIndex(m, pk.Value); i >= 0 || pk.Kind != yaml.ScalarNode {
		return i
	}
	if scalar.StringForAll(pk) && !scalar.NeedsQuotes(pk.Value) {
		return -1 // read as the string it spells, by every reader
	}
	id := scalar.JSONKey(pk)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kn := yamltree.Resolve(m.Content[i]); kn.Kind == yaml.ScalarNode && scalar.JSONKey(kn) == id {
			return i
		}
	}
	return -1
}

// shell makes a fresh node with the kind, style, tag, text and comments of p
// but no children. It is how patch content enters a document: containers are
// filled by merging the patch into the shell, so directives never leak.
// Anchors are not copied (they would redefine the document's own).
func shell(p *yaml.Node) *yaml.Node {
	n := &yaml.Node{
		Kind:        p.Kind,
		Style:       p.Style,
		Tag:         p.Tag,
		HeadComment: p.HeadComment,
		LineComment: p.LineComment,
		FootComment: p.FootComment,
		Line:        p.Line,
		Column:      p.Column,
	}
	if p.Kind == yaml.ScalarNode {
		n.Value = p.Value
		scalar.QuoteIfNeeded(n) // "12:30" must stay a string for YAML 1.1 readers
	}
	return n
}

// copyDocument deep-copies a subtree of the document being patched, used when
// the patch reaches into an alias: the alias is replaced by its own copy of the
// anchored value, so the anchor itself stays untouched. Anchors inside the
// copy are dropped; aliases inside it are kept (their anchors come earlier).
func (m *merger) copyDocument(n *yaml.Node) (*yaml.Node, error) {
	if err := m.budget.Nodes(1); err != nil {
		return nil, m.tooLarge(err)
	}
	c := *n
	c.Anchor = ""
	if n.Kind == yaml.AliasNode {
		return &c, nil
	}
	if err := m.copyContent(&c, n, (*merger).copyDocument); err != nil {
		return nil, err
	}
	return &c, nil
}

// copyContent gives c, a copy of n, copies of n's children made by cp (a
// method expression: a method value would cost an allocation a node). An
// empty list of children is c's own too.
func (m *merger) copyContent(c, n *yaml.Node, cp func(*merger, *yaml.Node) (*yaml.Node, error)) error {
	if n.Content == nil {
		return nil
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		cc, err := cp(m, k)
		if err != nil {
			return err
		}
		c.Content[i] = cc
	}
	return nil
}

// hasAnchorOrAlias reports whether a subtree defines an anchor or uses an
// alias; removing or moving such a subtree may leave aliases dangling.
func hasAnchorOrAlias(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAnchorOrAlias(c) {
			return true
		}
	}
	return false
}
