package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// A Default merge (Options.Default, a config's mode: default) fills what
// the document lacks: platform defaults — a pull policy, resource
// requests, a securityContext — that must never clobber what a team set on
// purpose. The rules live beside the ones they bend: value.go (scalars and
// maps), fillList here (lists), mergeKeyed (keyed elements are merged,
// never added), and the directives, which all change what is there and so
// are refused.

// has reports whether the document has a value at d: a missing field and
// a null are no value.
func has(d *yaml.Node) bool {
	return d != nil && !yamltree.IsNull(yamltree.Resolve(d))
}

// count records one value a default wrote where there was none.
func (m *merger) count() {
	if m.quiet == 0 {
		m.filled++
	}
}

// dryRun builds the patch node p as if the document had nothing there, and
// throws the result away: a default that does not apply at some place must
// report the same errors as where it does, so that a patch is valid or not
// whatever the document.
func (m *merger) dryRun(p *yaml.Node, t *schema.Type) error {
	m.quiet++
	m.whole++
	_, err := m.value(nil, p, t)
	m.whole--
	m.quiet--
	return err
}

// keepsOwn reports whether a default leaves the document's own value d
// as it is rather than merge a patch map into it: there is one, and it is
// no map the patch merges into (a scalar, a list, a map the schema
// replaces whole).
func (m *merger) keepsOwn(d *yaml.Node, t *schema.Type) bool {
	return m.fill && has(d) && (!isMap(d) || replacesMap(t))
}

// fillList is list() for a default: a keyed list merges into the elements
// the document has (mergeKeyed adds none); any other list is written where
// the document has none, and left as it is otherwise.
func (m *merger) fillList(d, p *yaml.Node, t *schema.Type, strategy schema.ListStrategy, keys []string) (*yaml.Node, error) {
	switch {
	case strategy == schema.MergeByKeys:
		return m.fillKeyed(d, p, t, keys)
	case has(d):
		// The document has its own list: the patch's is built only for
		// the errors it may hold.
		m.quiet++
		m.whole++
		_, err := m.replaceList(nil, p, t)
		m.whole--
		m.quiet--
		return d, err
	}
	return m.fillMissing(d, p, t, strategy)
}

// fillKeyed merges the elements of a keyed list into those the document
// has, adding none.
func (m *merger) fillKeyed(d, p *yaml.Node, t *schema.Type, keys []string) (*yaml.Node, error) {
	if !isSeq(d) {
		// No list to fill (or a value of another kind): check the
		// elements against an empty one, which gains nothing.
		m.quiet++
		defer func() { m.quiet-- }()
		if err := m.mergeKeyed(shell(p), p, t, keys); err != nil {
			return nil, err
		}
		return d, nil
	}
	own, err := m.own(d, p, yaml.SequenceNode, false)
	if err != nil {
		return nil, err
	}
	if err := m.mergeKeyed(own, p, t, keys); err != nil {
		return nil, err
	}
	return own, nil
}

// fillMissing writes the patch's list where the document has none. The
// list counts as one value filled, not each of its elements.
func (m *merger) fillMissing(d, p *yaml.Node, t *schema.Type, strategy schema.ListStrategy) (*yaml.Node, error) {
	m.quiet++
	r, err := m.newList(d, p, t, strategy)
	m.quiet--
	if err != nil {
		return nil, err
	}
	m.count()
	return r, nil
}

// newList builds the patch's list in the place of d, which holds none: a
// set's values as merged into nothing, any other list as it is.
func (m *merger) newList(d, p *yaml.Node, t *schema.Type, strategy schema.ListStrategy) (*yaml.Node, error) {
	if strategy != schema.Set {
		return m.replaceList(d, p, t)
	}
	r, err := m.own(d, p, yaml.SequenceNode, false)
	if err != nil {
		return nil, err
	}
	err = m.mergeSet(r, p, t)
	settleStyle(r, p, true)
	return r, err
}

// refusePatch refuses, in a default, a $patch directive that removes or
// replaces (merge, or none, changes nothing that is there).
func (m *merger) refusePatch(dir string) error {
	if m.fill && dir != "" && dir != directiveMerge {
		return m.refuseInDefault("$patch: " + dir)
	}
	return nil
}

// refuseInDefault is the error for a directive a default cannot carry.
func (m *merger) refuseInDefault(what string) error {
	return m.errorf("mode: default fills what is missing and changes nothing that is there: %s cannot be part of a default", what)
}
