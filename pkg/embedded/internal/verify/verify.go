package verify

import (
	"fmt"
	"strconv"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/write"
	yaml "go.yaml.in/yaml/v3"
)

// Verify parses out, the edit of old, and compares the two: every value
// must be as it was except at the addresses checks holds (by
// locate.AddrKey), which must hold what was written. It returns the tree
// of out.
func Verify(old *span.Tree, out string, checks map[string]write.Check) (*span.Tree, error) {
	nt, err := span.Parse(out, old.Format)
	if err != nil {
		return nil, fmt.Errorf("the result does not parse: %v", err)
	}
	if nt.TailBroken && !old.TailBroken {
		return nil, fmt.Errorf("the result does not parse after its first document")
	}
	v := &verifier{old: old, new: nt, checks: checks, onPath: onPath(checks)}
	if err := v.compare(old.Root, nt.Root, ""); err != nil {
		return nil, err
	}
	return nt, nil
}

// onPath holds the addresses on the way to an edit: only there do
// addresses need to be spelled out; everywhere else the trees must simply
// be equal.
func onPath(checks map[string]write.Check) map[string]bool {
	on := map[string]bool{}
	for a := range checks {
		for i := 0; i <= len(a); i++ {
			if i == len(a) || a[i] == '/' {
				on[a[:i]] = true
			}
		}
	}
	return on
}

// verifier compares a document with its edited version.
type verifier struct {
	old, new *span.Tree
	checks   map[string]write.Check
	onPath   map[string]bool
}

// same reports whether two subtrees hold the same values. JSON means the
// same thing wherever it stands, so identical bytes are enough (and spare
// building the nodes); YAML depends on its surroundings and is compared
// value by value.
func (v *verifier) same(o, n *span.Node) bool {
	if v.old.Format == span.JSON {
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
	if o.Kind == span.Scalar || o.Kind == span.Alias {
		return sameLeaf(o, n)
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

// sameLeaf reports whether two scalars hold the same value of the same
// type, or two aliases name the same anchor.
func sameLeaf(o, n *span.Node) bool {
	if o.Kind == span.Alias {
		return o.Source.Value == n.Source.Value
	}
	return o.Value == n.Value && o.Tag == n.Tag
}

// compare compares the value at addr before (o) and after (n) the edit:
// equal, unless the address was edited, where it must read as checked.
func (v *verifier) compare(o, n *span.Node, addr string) error {
	if !v.onPath[addr] {
		return v.unchanged(o, n, addr)
	}
	v.old.Open(o)
	v.new.Open(n)
	if c, checked := v.checks[addr]; checked {
		return v.compareChecked(o, n, addr, c)
	}
	return v.compareOnPath(o, n, addr)
}

// unchanged is an error when the value o, now n at addr, changed.
func (v *verifier) unchanged(o, n *span.Node, addr string) error {
	if !v.same(o, n) {
		return fmt.Errorf("the %s at %s changed", o.Kind, where(addr))
	}
	return nil
}

// compareChecked compares a value that was edited with what c says was
// written: entries removed and added, or a value that must read back.
func (v *verifier) compareChecked(o, n *span.Node, addr string, c write.Check) error {
	if c.Entries() {
		return v.compareEntries(o, n, addr, c)
	}
	if !v.matchesWant(n, c.Want) {
		return fmt.Errorf("the value written at %s does not read back", where(addr))
	}
	return nil
}

// leafWord names a scalar ("value") or an alias in messages.
var leafWord = map[span.Kind]string{span.Scalar: "value", span.Alias: "alias"}

// compareOnPath compares a value on the way to an edit, not edited
// itself: a scalar or alias as it was, a map or list with the same
// entries.
func (v *verifier) compareOnPath(o, n *span.Node, addr string) error {
	if o.Kind != n.Kind {
		return fmt.Errorf("the %s at %s became a %s", o.Kind, where(addr), n.Kind)
	}
	if o.Kind == span.Scalar || o.Kind == span.Alias {
		if !sameLeaf(o, n) {
			return fmt.Errorf("the %s at %s changed", leafWord[o.Kind], where(addr))
		}
		return nil
	}
	return v.compareEntries(o, n, addr, write.Check{})
}

// compareEntries compares a map or list that lost the entries c.Gone and
// gained c.Added at its end; the other entries must be as they were, in
// the same order.
func (v *verifier) compareEntries(o, n *span.Node, addr string, c write.Check) error {
	if o.Kind != n.Kind {
		return fmt.Errorf("the %s at %s became a %s", o.Kind, where(addr), n.Kind)
	}
	if want := len(o.Children) - len(c.Gone) + len(c.Added); len(n.Children) != want {
		return fmt.Errorf("the %s at %s has %d entries instead of %d", o.Kind, where(addr), len(n.Children), want)
	}
	j, err := v.compareKept(o, n, addr, c.Gone)
	if err != nil {
		return err
	}
	return v.compareAdded(n, j, addr, c.Added)
}

// compareKept compares the entries of o that stay with those of n, in
// order, and returns the index in n past the last of them.
func (v *verifier) compareKept(o, n *span.Node, addr string, gone map[int]bool) (int, error) {
	j := 0
	for i := range o.Children {
		if gone[i] {
			continue
		}
		if o.Kind == span.Map && !v.same(o.Keys[i], n.Keys[j]) {
			return 0, fmt.Errorf("a key at %s changed", where(addr))
		}
		if err := v.compareMoved(o.Children[i], n.Children[j], addr+"/"+strconv.Itoa(i), addr+"/"+strconv.Itoa(j)); err != nil {
			return 0, err
		}
		j++
	}
	return j, nil
}

// compareAdded compares the entries of n from j on with those added.
func (v *verifier) compareAdded(n *span.Node, j int, addr string, added []write.Added) error {
	for _, a := range added {
		if n.Kind == span.Map && !keyIs(n.Keys[j], a.Key) {
			return fmt.Errorf("the key added at %s does not read back", where(addr))
		}
		if !v.matchesWant(n.Children[j], a.Want) {
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
		return v.unchanged(o, n, newAddr)
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
		if !keyIs(n.Keys[i], want.Content[2*i].Value) || !v.matchesWant(n.Children[i], want.Content[2*i+1]) {
			return false
		}
	}
	return true
}

// keyIs reports whether the key k is the scalar key.
func keyIs(k *span.Node, key string) bool {
	return k.Kind == span.Scalar && k.Value == key
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
