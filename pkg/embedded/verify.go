package embedded

import (
	"fmt"
	"strconv"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// verify parses the edited text and compares it with the original: every
// value must be as it was except at the edited addresses, which must hold
// what was written. It is the safety net under the span arithmetic: an edit
// that would change anything else is refused.
func (d *doc) verify(out string, checks map[string]check) (*doc, error) {
	nd, err := parseAs(out, d.format)
	if err != nil {
		return nil, fmt.Errorf("the result does not parse: %v", err)
	}
	nd.jsonish = d.jsonish
	// The addresses on the way to an edit: only there do addresses need
	// to be spelled out; everywhere else the trees must simply be equal.
	onPath := map[string]bool{}
	for a := range checks {
		for i := 0; i <= len(a); i++ {
			if i == len(a) || a[i] == '/' {
				onPath[a[:i]] = true
			}
		}
	}
	v := &verifier{old: d, new: nd, checks: checks, onPath: onPath}
	if err := v.compare(d.Root, nd.Root, ""); err != nil {
		return nil, err
	}
	return nd, nil
}

// verifier compares a document with its edited version.
type verifier struct {
	old, new *doc
	checks   map[string]check
	onPath   map[string]bool
}

// same reports whether two subtrees hold the same values. JSON means the
// same thing wherever it stands, so identical bytes are enough (and spare
// building the nodes); YAML depends on its surroundings and is compared
// value by value.
func (v *verifier) same(o, n *span.Node) bool {
	if v.old.format == JSON {
		return v.old.Text[o.Start:o.End] == v.new.Text[n.Start:n.End]
	}
	return sameYAML(o, n)
}

// sameYAML reports whether two YAML subtrees hold the same values, keys
// and aliases.
func sameYAML(o, n *span.Node) bool {
	if o.Kind != n.Kind || len(o.Children) != len(n.Children) {
		return false
	}
	switch o.Kind {
	case span.Scalar:
		return o.Value == n.Value && o.Tag == n.Tag
	case span.Alias:
		return o.Source.Value == n.Source.Value
	}
	for i := range o.Children {
		if o.Kind == span.Map && !sameYAML(o.Keys[i], n.Keys[i]) {
			return false
		}
		if !sameYAML(o.Children[i], n.Children[i]) {
			return false
		}
	}
	return true
}

// compare compares the value at addr before (o) and after (n) the edit:
// equal, unless the address was edited, where it must read as checked.
func (v *verifier) compare(o, n *span.Node, addr string) error {
	if !v.onPath[addr] {
		if !v.same(o, n) {
			return fmt.Errorf("the %s at %s changed", o.Kind, where(addr))
		}
		return nil
	}
	v.old.Open(o)
	v.new.Open(n)
	c, checked := v.checks[addr]
	if checked && c.entries() {
		return v.compareEntries(o, n, addr, c)
	}
	if checked {
		if !v.matchesWant(n, c.want) {
			return fmt.Errorf("the value written at %s does not read back", where(addr))
		}
		return nil
	}
	if o.Kind != n.Kind {
		return fmt.Errorf("the %s at %s became a %s", o.Kind, where(addr), n.Kind)
	}
	switch o.Kind {
	case span.Scalar:
		if o.Value != n.Value || o.Tag != n.Tag {
			return fmt.Errorf("the value at %s changed", where(addr))
		}
		return nil
	case span.Alias:
		if o.Source.Value != n.Source.Value {
			return fmt.Errorf("the alias at %s changed", where(addr))
		}
		return nil
	}
	return v.compareEntries(o, n, addr, check{})
}

// compareEntries compares a map or list that lost the entries c.gone and
// gained c.added at its end; the other entries must be as they were, in
// the same order.
func (v *verifier) compareEntries(o, n *span.Node, addr string, c check) error {
	if o.Kind != n.Kind {
		return fmt.Errorf("the %s at %s became a %s", o.Kind, where(addr), n.Kind)
	}
	if want := len(o.Children) - len(c.gone) + len(c.added); len(n.Children) != want {
		return fmt.Errorf("the %s at %s has %d entries instead of %d", o.Kind, where(addr), len(n.Children), want)
	}
	j := 0
	for i := range o.Children {
		if c.gone[i] {
			continue
		}
		if o.Kind == span.Map && !v.same(o.Keys[i], n.Keys[j]) {
			return fmt.Errorf("a key at %s changed", where(addr))
		}
		if err := v.compareMoved(o.Children[i], n.Children[j], addr+"/"+strconv.Itoa(i), addr+"/"+strconv.Itoa(j)); err != nil {
			return err
		}
		j++
	}
	for _, a := range c.added {
		if o.Kind == span.Map && (n.Keys[j].Kind != span.Scalar || n.Keys[j].Value != a.key) {
			return fmt.Errorf("the key added at %s does not read back", where(addr))
		}
		if !v.matchesWant(n.Children[j], a.want) {
			return fmt.Errorf("the entry added at %s does not read back", where(addr))
		}
		j++
	}
	return nil
}

// compareMoved compares a value that moved from one address to another;
// nothing below it was edited.
func (v *verifier) compareMoved(o, n *span.Node, oldAddr, newAddr string) error {
	if !v.onPath[oldAddr] {
		if !v.same(o, n) {
			return fmt.Errorf("the %s at %s changed", o.Kind, where(newAddr))
		}
		return nil
	}
	return v.compare(o, n, oldAddr)
}

// where names an address in messages.
func where(addr string) string {
	if addr == "" {
		return "the top"
	}
	return addr
}

// matchesWant compares a parsed node with the value that was written.
func (v *verifier) matchesWant(n *span.Node, want *yaml.Node) bool {
	if want.Kind == yaml.AliasNode && want.Alias != nil {
		want = want.Alias
	}
	v.new.Open(n)
	switch want.Kind {
	case yaml.MappingNode:
		return v.matchesMap(n, want)
	case yaml.SequenceNode:
		return v.matchesList(n, want)
	}
	return matchesScalar(n, want)
}

// matchesMap is matchesWant for a map: the same keys, in order, with
// values that match.
func (v *verifier) matchesMap(n *span.Node, want *yaml.Node) bool {
	if n.Kind != span.Map || 2*len(n.Children) != len(want.Content) {
		return false
	}
	for i := range n.Children {
		k := want.Content[2*i]
		if n.Keys[i].Kind != span.Scalar || n.Keys[i].Value != k.Value || !v.matchesWant(n.Children[i], want.Content[2*i+1]) {
			return false
		}
	}
	return true
}

// matchesList is matchesWant for a list: elements that match, in order.
func (v *verifier) matchesList(n *span.Node, want *yaml.Node) bool {
	if n.Kind != span.Seq || len(n.Children) != len(want.Content) {
		return false
	}
	for i := range n.Children {
		if !v.matchesWant(n.Children[i], want.Content[i]) {
			return false
		}
	}
	return true
}

// matchesScalar is matchesWant for a scalar: the same value and type (an
// integer and a float are both numbers; no tag is a string).
func matchesScalar(n *span.Node, want *yaml.Node) bool {
	if n.Kind != span.Scalar || n.Value != want.Value {
		return false
	}
	wt := want.Tag
	if wt == "" {
		wt = span.StrTag
	}
	return n.Tag == wt || (isNumberTag(n.Tag) && isNumberTag(wt))
}

// isNumberTag reports whether t is the tag of a number.
func isNumberTag(t string) bool { return t == span.IntTag || t == span.FloatTag }

// check is what verify expects to find after an edit at one address: the
// value written there, or the entries the map or list there lost and
// gained.
type check struct {
	want *yaml.Node // as it must read back
	// gone holds the indexes of the entries deleted, and added the
	// entries appended, in order.
	gone  map[int]bool
	added []addedCheck
}

// addedCheck is an entry added to a map or list, as it must read back.
type addedCheck struct {
	key  string
	want *yaml.Node
}

// entries reports whether the check is of entries lost and gained rather
// than of a value written.
func (c check) entries() bool { return len(c.gone) > 0 || len(c.added) > 0 }

// readBack is what reading a rendered new structure gives.
func readBack(f Format, v *yaml.Node) *yaml.Node {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		out := &yaml.Node{Kind: v.Kind}
		for _, c := range v.Content {
			out.Content = append(out.Content, readBack(f, c))
		}
		return out
	}
	tag := scalarTag(nil, v)
	if f == JSON {
		return jsonReadBack(tag, v.Value)
	}
	written := yamlScalar(tag, v.Value, nil, false, "\n")
	return yamlReadBack(tag, v.Value, written)
}

// jsonReadBack is the scalar a JSON parser reads from what jsonScalar wrote.
func jsonReadBack(tag, value string) *yaml.Node {
	text := value
	switch tag {
	case span.BoolTag:
		text = jsonScalar(tag, value)
	case span.NullTag:
		text = "null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// yamlReadBack is the scalar yaml.v3 reads from what yamlScalar wrote.
func yamlReadBack(tag, value, written string) *yaml.Node {
	if tag == span.NullTag {
		value = written
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}
