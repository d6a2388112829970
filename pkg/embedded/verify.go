package embedded

import (
	"fmt"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// verify parses the edited text and compares it with the original: every
// value must be as it was except at the edited addresses, which must hold
// what was written. It is the safety net under the span arithmetic: an edit
// that would change anything else is refused.
func (d *doc) verify(out string, checks map[string]check) (*doc, error) {
	var nd *doc
	var err error
	if d.format == JSON {
		nd, err = parseJSON(out)
	} else {
		nd, err = parseYAML(out)
	}
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
	if err := v.compare(d.root, nd.root, ""); err != nil {
		return nil, err
	}
	return nd, nil
}

type verifier struct {
	old, new *doc
	checks   map[string]check
	onPath   map[string]bool
}

// same reports whether two subtrees hold the same values. JSON means the
// same thing wherever it stands, so identical bytes are enough (and spare
// building the nodes); YAML depends on its surroundings and is compared
// value by value.
func (v *verifier) same(o, n *node) bool {
	if v.old.format == JSON {
		return v.old.text[o.start:o.end] == v.new.text[n.start:n.end]
	}
	return sameYAML(o, n)
}

func sameYAML(o, n *node) bool {
	if o.kind != n.kind || len(o.children) != len(n.children) {
		return false
	}
	switch o.kind {
	case scalarKind:
		return o.value == n.value && o.tag == n.tag
	case aliasKind:
		return o.yn.Value == n.yn.Value
	}
	for i := range o.children {
		if o.kind == mapKind && !sameYAML(o.keys[i], n.keys[i]) {
			return false
		}
		if !sameYAML(o.children[i], n.children[i]) {
			return false
		}
	}
	return true
}

func (v *verifier) compare(o, n *node, addr string) error {
	if !v.onPath[addr] {
		if !v.same(o, n) {
			return fmt.Errorf("the %s at %s changed", o.kind, where(addr))
		}
		return nil
	}
	v.old.open(o)
	v.new.open(n)
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
	if o.kind != n.kind {
		return fmt.Errorf("the %s at %s became a %s", o.kind, where(addr), n.kind)
	}
	switch o.kind {
	case scalarKind:
		if o.value != n.value || o.tag != n.tag {
			return fmt.Errorf("the value at %s changed", where(addr))
		}
		return nil
	case aliasKind:
		if o.yn.Value != n.yn.Value {
			return fmt.Errorf("the alias at %s changed", where(addr))
		}
		return nil
	}
	return v.compareEntries(o, n, addr, check{})
}

// compareEntries compares a map or list that lost the entries c.gone and
// gained c.added at its end; the other entries must be as they were, in
// the same order.
func (v *verifier) compareEntries(o, n *node, addr string, c check) error {
	if o.kind != n.kind {
		return fmt.Errorf("the %s at %s became a %s", o.kind, where(addr), n.kind)
	}
	if want := len(o.children) - len(c.gone) + len(c.added); len(n.children) != want {
		return fmt.Errorf("the %s at %s has %d entries instead of %d", o.kind, where(addr), len(n.children), want)
	}
	j := 0
	for i := range o.children {
		if c.gone[i] {
			continue
		}
		if o.kind == mapKind && !v.same(o.keys[i], n.keys[j]) {
			return fmt.Errorf("a key at %s changed", where(addr))
		}
		if err := v.compareMoved(o.children[i], n.children[j], addr+"/"+strconv.Itoa(i), addr+"/"+strconv.Itoa(j)); err != nil {
			return err
		}
		j++
	}
	for _, a := range c.added {
		if o.kind == mapKind && (n.keys[j].kind != scalarKind || n.keys[j].value != a.key) {
			return fmt.Errorf("the key added at %s does not read back", where(addr))
		}
		if !v.matchesWant(n.children[j], a.want) {
			return fmt.Errorf("the entry added at %s does not read back", where(addr))
		}
		j++
	}
	return nil
}

func where(addr string) string {
	if addr == "" {
		return "the top"
	}
	return addr
}

// matchesWant compares a parsed node with the value that was written.
func (v *verifier) matchesWant(n *node, want *yaml.Node) bool {
	if want.Kind == yaml.AliasNode && want.Alias != nil {
		want = want.Alias
	}
	v.new.open(n)
	switch want.Kind {
	case yaml.MappingNode:
		if n.kind != mapKind || 2*len(n.children) != len(want.Content) {
			return false
		}
		for i := range n.children {
			k := want.Content[2*i]
			if n.keys[i].kind != scalarKind || n.keys[i].value != k.Value || !v.matchesWant(n.children[i], want.Content[2*i+1]) {
				return false
			}
		}
		return true
	case yaml.SequenceNode:
		if n.kind != seqKind || len(n.children) != len(want.Content) {
			return false
		}
		for i := range n.children {
			if !v.matchesWant(n.children[i], want.Content[i]) {
				return false
			}
		}
		return true
	}
	if n.kind != scalarKind || n.value != want.Value {
		return false
	}
	wt := want.Tag
	if wt == "" {
		wt = strTag
	}
	return n.tag == wt || (isNumberTag(n.tag) && isNumberTag(wt))
}

func isNumberTag(t string) bool { return t == intTag || t == floatTag }

// compareMoved compares a value that moved from one address to another;
// nothing below it was edited.
func (v *verifier) compareMoved(o, n *node, oldAddr, newAddr string) error {
	if !v.onPath[oldAddr] {
		if !v.same(o, n) {
			return fmt.Errorf("the %s at %s changed", o.kind, where(newAddr))
		}
		return nil
	}
	return v.compare(o, n, oldAddr)
}
