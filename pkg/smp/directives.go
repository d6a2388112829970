package smp

import (
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// The directives of the strategic merge patch format. They are instructions
// for the merge and never appear in its output.
const (
	keyPatch      = "$patch"
	keyRetainKeys = "$retainKeys"
	// prefixes followed by the name of a sibling list field
	prefixOrder  = "$setElementOrder/"
	prefixDelete = "$deleteFromPrimitiveList/"

	directiveMerge   = "merge"
	directiveReplace = "replace"
	directiveDelete  = "delete"
)

// mapDirective returns the validated $patch value of a patch map, "" if none.
func (m *merger) mapDirective(p *yaml.Node) (string, error) {
	v := yamltree.Lookup(p, keyPatch)
	if v == nil {
		return "", nil
	}
	v = yamltree.Resolve(v)
	if v.Kind == yaml.ScalarNode {
		switch v.Value {
		case directiveMerge, directiveReplace, directiveDelete:
			return v.Value, nil
		}
	}
	if v.Kind == yaml.ScalarNode {
		return "", m.errorf("unknown $patch directive %q (want merge, replace or delete)", v.Value)
	}
	return "", m.errorf("$patch is %s; want merge, replace or delete", yamltree.Describe(v))
}

// mapDirectives is what a patch map asks for beyond its fields.
type mapDirectives struct {
	// retainKeys is the $retainKeys list, nil if absent.
	retainKeys *yaml.Node
	// orders and deletes are the indexes in the patch map's Content of the
	// $setElementOrder/<list> and $deleteFromPrimitiveList/<list> keys.
	orders  []int
	deletes []int
}

// scanDirectives validates the keys of a patch map and what its directive
// keys ask for. A key starting with "$" that is no directive is an error,
// unless the schema declares a field of that name or the document is a
// value rather than an object (Options.Values: JSON Schema's $schema and
// $ref are data): a misspelt directive must not become data.
func (m *merger) scanDirectives(p *yaml.Node, t *schema.Type) (mapDirectives, error) {
	var d mapDirectives
	if err := m.checkPatchKeys(p.Content); err != nil {
		return d, err
	}
	for i := 0; i+1 < len(p.Content); i += 2 {
		if k := yamltree.Resolve(p.Content[i]).Value; len(k) > 0 && k[0] == '$' {
			if err := m.directive(&d, p.Content, i, t); err != nil {
				return d, err
			}
		}
	}
	return d, nil
}

// checkPatchKeys refuses a patch map whose keys are not scalars, or that
// sets a key twice, spelled alike or read alike (true and True).
func (m *merger) checkPatchKeys(c []*yaml.Node) error {
	if err := m.keysReadAlike(c); err != nil {
		return err
	}
	seen := newKeySet(c)
	for i := 0; i+1 < len(c); i += 2 {
		kn := yamltree.Resolve(c[i])
		if kn.Kind != yaml.ScalarNode {
			return m.errorf("map keys must be scalars, found %s", yamltree.Describe(kn))
		}
		if seen.repeats(i) {
			return m.errorf("the patch sets %q twice", kn.Value)
		}
	}
	return nil
}

// keysReadAlike refuses a patch map with two keys spelled differently
// that YAML readers take for one (true and True).
func (m *merger) keysReadAlike(c []*yaml.Node) error {
	var same error
	scalar.ResolvedDuplicates(c, func(i, j int) {
		if same == nil {
			same = m.errorf("the patch sets %q and %q, which YAML readers take for one key (quote both to make them strings)",
				yamltree.Resolve(c[i]).Value, yamltree.Resolve(c[j]).Value)
		}
	})
	return same
}

// keySet tells the keys of map content c met before: large maps keep them
// in a set, small ones are compared pairwise.
type keySet struct {
	c    []*yaml.Node
	seen map[string]struct{}
}

func newKeySet(c []*yaml.Node) keySet {
	s := keySet{c: c}
	if len(c) > 32 {
		s.seen = make(map[string]struct{}, len(c)/2)
	}
	return s
}

// repeats reports whether key i repeats a key before it; keys are met in
// order.
func (s keySet) repeats(i int) bool {
	if s.seen == nil {
		return duplicateKey(s.c, i)
	}
	k := yamltree.Resolve(s.c[i]).Value
	_, dup := s.seen[k]
	s.seen[k] = struct{}{}
	return dup
}

// directive checks key i of patch map content c, a key starting with "$",
// and records what it asks for in d.
func (m *merger) directive(d *mapDirectives, c []*yaml.Node, i int, t *schema.Type) error {
	k := yamltree.Resolve(c[i]).Value
	switch {
	case k == keyPatch:
		return nil // validated by mapDirective
	case isListDirective(k):
		return m.listDirective(d, c, i)
	case m.values || t.HasField(k):
		return nil // a field that happens to start with $
	}
	return m.errorf("unknown directive %q (known: $patch, $retainKeys, $setElementOrder/<list>, $deleteFromPrimitiveList/<list>)", k)
}

// listDirective is directive for $retainKeys, $setElementOrder/<list> and
// $deleteFromPrimitiveList/<list>, which a default may not hold.
func (m *merger) listDirective(d *mapDirectives, c []*yaml.Node, i int) error {
	k, v := yamltree.Resolve(c[i]).Value, yamltree.Resolve(c[i+1])
	if m.fill {
		return m.refuseInDefault(k)
	}
	switch {
	case k == keyRetainKeys:
		d.retainKeys = v
		return m.scalarList(v, k)
	case strings.HasPrefix(k, prefixOrder):
		d.orders = append(d.orders, i)
		return m.orderList(k, v)
	}
	d.deletes = append(d.deletes, i)
	if err := m.namesList(k, prefixDelete); err != nil {
		return err
	}
	return m.scalarList(v, k)
}

// orderList checks a $setElementOrder/<list>: it names a list and is one.
func (m *merger) orderList(k string, v *yaml.Node) error {
	if err := m.namesList(k, prefixOrder); err != nil {
		return err
	}
	if v.Kind != yaml.SequenceNode {
		return m.errorf("%s must be a list, found %s", k, yamltree.Describe(v))
	}
	return nil
}

// IsDirective reports whether a map key is one of strategic merge's
// directives ($patch, $retainKeys, $setElementOrder/<list>,
// $deleteFromPrimitiveList/<list>), which a merge acts on and never writes.
func IsDirective(k string) bool { return k == keyPatch || isListDirective(k) }

// isListDirective reports whether k is a directive about lists or fields,
// which a default may not hold.
func isListDirective(k string) bool {
	return k == keyRetainKeys || strings.HasPrefix(k, prefixOrder) || strings.HasPrefix(k, prefixDelete)
}

// namesList refuses a list directive without the list's name after its
// prefix.
func (m *merger) namesList(k, prefix string) error {
	if len(k) == len(prefix) {
		return m.errorf("%s needs the name of a list after the slash", k)
	}
	return nil
}

// isDirectiveKey reports whether key i of patch map p is a directive that
// scanDirectives accepted (and so is not a field to merge).
func isDirectiveKey(p *yaml.Node, i int) bool {
	return IsDirective(yamltree.Resolve(p.Content[i]).Value) // else data starting with $
}

// duplicateKey reports whether key i of map content c repeats an earlier key.
// YAML forbids it, the parser lets it through, and a merge could not be
// idempotent with it (the first b: null deletes what the second b: 0 adds).
func duplicateKey(c []*yaml.Node, i int) bool {
	k := yamltree.Resolve(c[i]).Value
	for j := 0; j < i; j += 2 {
		if yamltree.Resolve(c[j]).Value == k {
			return true
		}
	}
	return false
}

func (m *merger) scalarList(v *yaml.Node, k string) error {
	if v.Kind != yaml.SequenceNode {
		return m.errorf("%s must be a list of values, found %s", k, yamltree.Describe(v))
	}
	for _, e := range v.Content {
		if e = yamltree.Resolve(e); e.Kind != yaml.ScalarNode {
			return m.errorf("%s must be a list of values, found %s in it", k, yamltree.Describe(e))
		}
	}
	return nil
}

// applyRetainKeys implements $retainKeys (keep; nil when the patch map
// has none): the fields of the document map not listed are cleared. As in
// apimachinery every field the patch sets (to something other than null)
// must be listed, or the patch contradicts itself.
func (m *merger) applyRetainKeys(d, p, keep *yaml.Node) error {
	if keep == nil {
		return nil
	}
	if err := m.checkRetained(p, keep); err != nil {
		return err
	}
	c := d.Content
	out := c[:0]
	for i := 0; i+1 < len(c); i += 2 {
		kn := yamltree.Resolve(c[i])
		if kn.Kind == yaml.ScalarNode && retains(keep, kn.Value) {
			out = append(out, c[i], c[i+1])
			continue
		}
		m.dropped(c[i])
		m.dropped(c[i+1])
	}
	clear(c[len(out):])
	d.Content = out
	return nil
}

// checkRetained refuses a field patch map p sets (not to null) that the
// $retainKeys list keep does not list.
func (m *merger) checkRetained(p, keep *yaml.Node) error {
	for i := 0; i+1 < len(p.Content); i += 2 {
		if isDirectiveKey(p, i) || yamltree.IsNull(yamltree.Resolve(p.Content[i+1])) {
			continue
		}
		if k := yamltree.Resolve(p.Content[i]).Value; !retains(keep, k) {
			return m.errorf("the patch sets %q, which $retainKeys does not list", k)
		}
	}
	return nil
}

// retains reports whether the $retainKeys list keep lists field k.
func retains(keep *yaml.Node, k string) bool {
	for _, e := range keep.Content {
		if e = yamltree.Resolve(e); e.Value == k && !yamltree.IsNull(e) {
			return true
		}
	}
	return false
}

// applyDeletes implements the $deleteFromPrimitiveList/<list> of patch map
// p (deletes: the indexes of those keys in p.Content).
func (m *merger) applyDeletes(d, p *yaml.Node, deletes []int) {
	for _, i := range deletes {
		list := yamltree.Resolve(p.Content[i]).Value[len(prefixDelete):]
		m.applyDeleteFromPrimitiveList(d, yamltree.Resolve(p.Content[i+1]), list)
	}
}

// applyDeleteFromPrimitiveList removes every value listed from the document's
// list (all occurrences). A missing list, or one that is not a list, is left
// alone: there is nothing to delete from.
func (m *merger) applyDeleteFromPrimitiveList(d, values *yaml.Node, list string) {
	i, l, err := m.ownList(d, list)
	if i < 0 || err != nil {
		return
	}
	out := m.without(l.Content, values)
	if len(out) == len(l.Content) {
		return // nothing deleted: leave the alias (if any) in place
	}
	l.Content = out
	d.Content[i+1] = l
}

// ownList finds list field k of document map d: its index in d.Content
// and the list to change, a private copy where d holds an alias of a list
// (the anchored list stays as it is). The index is -1 where d has no list
// k.
func (m *merger) ownList(d *yaml.Node, k string) (int, *yaml.Node, error) {
	i := keyIndex(d, k)
	if i < 0 || !isSeq(d.Content[i+1]) {
		return -1, nil, nil
	}
	l := d.Content[i+1]
	if l.Kind == yaml.AliasNode {
		cp, err := m.copyDocument(yamltree.Resolve(l))
		return i, cp, err
	}
	return i, l, nil
}

// without returns the elements of a list but the scalars among values.
func (m *merger) without(elements []*yaml.Node, values *yaml.Node) []*yaml.Node {
	out := make([]*yaml.Node, 0, len(elements))
	for _, e := range elements {
		if re := yamltree.Resolve(e); re.Kind == yaml.ScalarNode && containsScalar(values, re) {
			m.dropped(e)
			continue
		}
		out = append(out, e)
	}
	return out
}

func containsScalar(list, v *yaml.Node) bool {
	for _, e := range list.Content {
		if scalarEqual(yamltree.Resolve(e), v) {
			return true
		}
	}
	return false
}
