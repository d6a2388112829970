package inherit

import (
	"errors"
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/scalar"
)

const mergeTag = "!!merge"

// maxDepth bounds how deep a copy nests (the YAML parsers' own bound):
// aliases of maps holding aliases could nest it without end.
const maxDepth = 10000

// ErrTooLarge is returned (wrapped) by Expand when the copy would overrun
// its budget or nest too deep; other errors are << keys with a value that
// is not a map.
var ErrTooLarge = errors.New("YAML aliases expand to too many nodes")

// IsKey reports whether k, a mapping key, is the << key: a plain `<<` (or one
// tagged !!merge). A quoted "<<" is an ordinary string key.
func IsKey(k *yaml.Node) bool {
	if k == nil || k.Kind != yaml.ScalarNode || k.Value != "<<" {
		return false
	}
	switch k.Tag {
	case mergeTag, "tag:yaml.org,2002:merge":
		return true
	case "", "!":
		return k.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
	}
	return false
}

// Contains reports whether a << key occurs anywhere in n (aliases are
// not followed: what they refer to is part of the same document).
func Contains(n *yaml.Node) bool { return anyKey(n, IsKey) }

// Untag clears the !!merge tag the parser puts on << keys. yaml.v3
// writes a tagged `<<` back as `!!merge <<`; untagged it is written `<<`,
// which every reader (yaml.v3 included) takes for a << key again.
func Untag(n *yaml.Node) {
	anyKey(n, func(k *yaml.Node) bool {
		untagKey(k)
		return false // every key
	})
}

// UntagMap is Untag for the keys of the mapping node m alone, not those of
// the maps below it: for a caller that walks the tree anyway.
func UntagMap(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		untagKey(m.Content[i])
	}
}

func untagKey(k *yaml.Node) {
	if IsKey(k) && k.Tag != "" {
		k.Tag = ""
	}
}

// anyKey calls f on the keys of every map in n, those of a map before the
// maps below it, until f returns true; it reports whether one did.
// Aliases are not followed.
func anyKey(n *yaml.Node, f func(k *yaml.Node) bool) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if f(n.Content[i]) {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if anyKey(c, f) {
			return true
		}
	}
	return false
}

// Check reports the first << key in n whose value is not a map or a list
// of maps, which every YAML reader refuses (and yaml.v3 parses into nodes
// all the same); aliases are followed one step, to the map they name.
func Check(n *yaml.Node) error {
	var err error
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || err != nil {
			return
		}
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content) && err == nil; i += 2 {
				if IsKey(n.Content[i]) {
					err = checkMerged(n.Content[i+1])
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return err
}

// checkMerged checks the value of a << key: a map, or a list of maps.
func checkMerged(v *yaml.Node) error {
	maps, err := mergedMaps(v)
	if err != nil {
		return err
	}
	for _, m := range maps {
		if deref(m).Kind != yaml.MappingNode {
			return notMaps(m)
		}
	}
	return nil
}

// Expand returns a deep copy of n in which aliases are replaced by copies
// of their anchors' values and << keys by the entries they merge, as a
// YAML reader sees them: a map's own keys win over merged ones, and of the
// maps a `<<: [*a, *b]` merges the first wins. Anchors are dropped. It
// fails on a << key whose value is not a map or a list of maps, and
// when the copies of what aliases stand for overrun b (nil: a budget of
// its own; an alias bomb is a few lines that stand for billions of nodes).
func Expand(n *yaml.Node, b *budget.Budget) (*yaml.Node, error) {
	e := expander{budget: budget.Or(b)}
	return e.copy(n, 0)
}

// expander is one Expand: its budget, and how many aliases deep the copy
// is (what it copies there is charged: it is what aliases multiply).
type expander struct {
	budget  *budget.Budget
	aliased int
}

// copy copies n, aliases and << keys expanded, within the budget.
func (e *expander) copy(n *yaml.Node, depth int) (*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		e.aliased++
		defer func() { e.aliased-- }()
	}
	if err := e.spend(depth); err != nil {
		return nil, err
	}
	n, err := target(n)
	if err != nil {
		return nil, err
	}
	c := *n
	c.Anchor = ""
	c.Content = nil
	if n.Kind == yaml.MappingNode {
		return e.copyMapping(n, &c, depth)
	}
	for _, x := range n.Content {
		cx, err := e.copy(x, depth+1)
		if err != nil {
			return nil, err
		}
		c.Content = append(c.Content, cx)
	}
	return &c, nil
}

// spend charges a node copied at depth through an alias, and refuses a
// copy nested too deep.
func (e *expander) spend(depth int) error {
	if e.aliased > 0 {
		if err := e.budget.Nodes(1); err != nil {
			return fmt.Errorf("%w: %w", ErrTooLarge, err)
		}
	}
	if depth > maxDepth {
		return fmt.Errorf("%w: nested more than %d levels", ErrTooLarge, maxDepth)
	}
	return nil
}

// target is the node an alias stands for (n itself when it is none); an
// alias without a target, or a chain of them longer than the parser
// builds, is an error.
func target(n *yaml.Node) (*yaml.Node, error) {
	for i := 0; n.Kind == yaml.AliasNode; i++ {
		if n.Alias == nil || i > 32 {
			return nil, fmt.Errorf("unresolved YAML alias *%s", n.Value)
		}
		n = n.Alias
	}
	return n, nil
}

// copyMapping fills c, the copy of mapping n: its own entries first, in
// order, then merged entries for keys not yet present, where the first
// << key was.
func (e *expander) copyMapping(n, c *yaml.Node, depth int) (*yaml.Node, error) {
	own := ownKeys(n)
	var merged []*yaml.Node // key, value, key, value...
	mergeAt := -1
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !IsKey(k) {
			if err := e.copyEntry(c, k, v, depth+1); err != nil {
				return nil, err
			}
			continue
		}
		if mergeAt < 0 {
			mergeAt = len(c.Content)
		}
		entries, err := e.mergedEntries(v, depth+1)
		if err != nil {
			return nil, err
		}
		merged = appendUnset(merged, own, entries)
	}
	if mergeAt >= 0 {
		c.Content = append(c.Content[:mergeAt:mergeAt], append(merged, c.Content[mergeAt:]...)...)
	}
	return c, nil
}

// ownKeys is the keys a mapping sets itself, by keyOf.
func ownKeys(n *yaml.Node) map[string]bool {
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if !IsKey(n.Content[i]) {
			own[keyOf(n.Content[i])] = true
		}
	}
	return own
}

// copyEntry appends copies of key k and value v to mapping c.
func (e *expander) copyEntry(c, k, v *yaml.Node, depth int) error {
	ck, err := e.copy(k, depth)
	if err != nil {
		return err
	}
	cv, err := e.copy(v, depth)
	if err != nil {
		return err
	}
	c.Content = append(c.Content, ck, cv)
	return nil
}

// appendUnset appends to merged the entries whose keys are not set yet
// (set: by the map itself or by an earlier merged map), and marks them
// set.
func appendUnset(merged []*yaml.Node, set map[string]bool, entries [][2]*yaml.Node) []*yaml.Node {
	for _, kv := range entries {
		if id := keyOf(kv[0]); !set[id] {
			set[id] = true
			merged = append(merged, kv[0], kv[1])
		}
	}
	return merged
}

// mergedEntries expands the value of a << key into key/value pairs, the
// winning entry first.
func (e *expander) mergedEntries(v *yaml.Node, depth int) ([][2]*yaml.Node, error) {
	maps, err := mergedMaps(v)
	if err != nil {
		return nil, err
	}
	var out [][2]*yaml.Node
	for _, m := range maps {
		if deref(m).Kind != yaml.MappingNode {
			return nil, notMaps(m)
		}
		cm, err := e.copy(m, depth+1) // << keys inside are expanded too
		if err != nil {
			return nil, err
		}
		out = appendEntries(out, cm)
	}
	return out, nil
}

// mergedMaps is what the value of a << key names: one map, or a list
// of them (each checked as it is copied).
func mergedMaps(v *yaml.Node) ([]*yaml.Node, error) {
	switch d := deref(v); d.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}, nil
	case yaml.SequenceNode:
		return d.Content, nil
	}
	return nil, notMaps(v)
}

// notMaps is the error for a << key whose value, or an element of it,
// is not a map.
func notMaps(n *yaml.Node) error {
	return fmt.Errorf("line %d: a << key takes a map or a list of maps", n.Line)
}

// appendEntries appends the key/value pairs of mapping m to out.
func appendEntries(out [][2]*yaml.Node, m *yaml.Node) [][2]*yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, [2]*yaml.Node{m.Content[i], m.Content[i+1]})
	}
	return out
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 32; i++ {
		n = n.Alias
	}
	return n
}

// keyOf identifies a key as yaml.v3 reads it: by its text where that is
// the string it spells, else by what it resolves to (00 and 0 are one key,
// so a merged 00 does not stand beside an own 0).
func keyOf(k *yaml.Node) string {
	k = deref(k)
	if k.Kind == yaml.ScalarNode && !scalar.StringForAll(k) {
		return "v3\x00" + scalar.JSONKey(k)
	}
	return fmt.Sprint(k.Kind) + "\x00" + k.Value
}

// Equal reports whether two expanded trees are the same, node for node.
func Equal(a, b *yaml.Node) bool {
	if !sameNode(a, b) {
		return false
	}
	for i := range a.Content {
		if !Equal(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// sameNode compares two nodes but for their children: kind, text, tag and
// how many children they have.
func sameNode(a, b *yaml.Node) bool {
	return a.Kind == b.Kind && a.Value == b.Value && a.ShortTag() == b.ShortTag() && len(a.Content) == len(b.Content)
}
