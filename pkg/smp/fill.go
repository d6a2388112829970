package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

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
	return d != nil && !isNull(resolve(d))
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

// fillList is list() for a default: a keyed list merges into the elements
// the document has (mergeKeyed adds none); any other list is written where
// the document has none, and left as it is otherwise.
func (m *merger) fillList(d, p *yaml.Node, t *schema.Type, strategy schema.ListStrategy, keys []string) (*yaml.Node, error) {
	if strategy == schema.MergeByKeys {
		target := d
		if !isSeq(d) {
			// No list to fill (or a value of another kind): check the
			// elements against an empty one, which gains nothing.
			target = shell(p)
			m.quiet++
			defer func() { m.quiet-- }()
		}
		own, err := m.own(target, p, yaml.SequenceNode, false)
		if err != nil {
			return nil, err
		}
		if err := m.mergeKeyed(own, p, t, keys); err != nil {
			return nil, err
		}
		if !isSeq(d) {
			return d, nil
		}
		return own, nil
	}
	if has(d) {
		m.quiet++
		m.whole++
		_, err := m.replaceList(nil, p, t)
		m.whole--
		m.quiet--
		return d, err
	}
	m.quiet++ // the list counts as one value, not each of its elements
	var r *yaml.Node
	var err error
	if strategy == schema.Set {
		if r, err = m.own(d, p, yaml.SequenceNode, false); err == nil {
			err = m.mergeSet(r, p, t)
			settleStyle(r, p, true)
		}
	} else {
		r, err = m.replaceList(d, p, t)
	}
	m.quiet--
	if err != nil {
		return nil, err
	}
	m.count()
	return r, nil
}

// refuseInDefault is the error for a directive a default cannot carry.
func (m *merger) refuseInDefault(what string) error {
	return m.errorf("mode: default fills what is missing and changes nothing that is there: %s cannot be part of a default", what)
}
