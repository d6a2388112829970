package mergemeta

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// typeKey identifies a type: the kind and the place in it, and the
// declarations that select the resource (resources of one kind mostly
// share them).
type typeKey struct{ apiVersion, kind, at, decls string }

type typed struct {
	t   *schema.Type
	err *DeclError
}

// DeclError is a declaration that cannot apply to a kind: it reaches a
// field whose merge rules a built-in kind's schema gives, or contradicts
// the keys a schema gives a list.
type DeclError struct {
	// Entry is the mergeKeys entry ("mergeKeys[0]"); Field the place.
	Entry, Field string
	Msg          string
	// First is set on the first error for an entry and kind: callers
	// report it once.
	First bool
}

func (e *DeclError) Error() string { return e.Msg }

// Adds reports whether the config adds anything to the built-in types and
// the CRDs among the resources: schema files or declared keys.
func (m *Meta) Adds() bool { return len(m.crds)+len(m.openapi)+len(m.decls) > 0 }

// TypeFor returns the root type of item i of ix (nil when nothing is known
// of its kind) with the lists the declarations that select it declare, and
// a string identifying the declarations applied (for callers' caches of
// what depends on the type). A declaration that cannot apply to the kind
// is a *DeclError.
func (m *Meta) TypeFor(ix *selector.Index, i int) (*schema.Type, string, error) {
	res := ix.Item(i)
	return m.TypeAs(ix, i, res.GetApiVersion(), res.GetKind(), nil, "")
}

// TypeAs is TypeFor for what lies at path at in a resource of the given
// kind, which messages call what ("a PodSpec"), with declarations whose
// paths start there: podspec-patch merges a workload's PodSpec as the spec
// of a v1 Pod, and its declarations are relative to the PodSpec.
func (m *Meta) TypeAs(ix *selector.Index, i int, apiVersion, kind string, at fieldpath.Path, what string) (*schema.Type, string, error) {
	s, err := m.SchemaOf(ix)
	if err != nil {
		return nil, "", err
	}
	base := s.Lookup(apiVersion, kind)
	for _, seg := range at {
		base = base.Field(seg.Key)
	}
	var applied []int
	for k, d := range m.decls {
		if d.sel.Matches(ix.Resource(i)) {
			applied = append(applied, k)
		}
	}
	if len(applied) == 0 {
		return base, "", nil
	}
	key := typeKey{apiVersion, kind, at.String(), joinInts(applied)}
	if t, ok := m.types[key]; ok {
		if t.err != nil {
			e := *t.err
			e.First = false
			return nil, key.decls, &e
		}
		return t.t, key.decls, nil
	}
	t, derr := m.graft(s, apiVersion, kind, at, what, base, applied)
	m.types[key] = typed{t, derr}
	if derr != nil {
		return nil, key.decls, derr
	}
	return t, key.decls, nil
}

// graft applies the declarations to the type at path at of a kind.
func (m *Meta) graft(s *schema.Schema, apiVersion, kind string, at fieldpath.Path, what string, base *schema.Type, applied []int) (*schema.Type, *DeclError) {
	owner := apiVersion + " " + kind + " is a built-in kind"
	if what != "" {
		owner = what + " is a built-in type"
	}
	t := base
	for _, k := range applied {
		d := m.decls[k]
		full := append(append(fieldpath.Path{}, at...), d.Path...)
		if _, how, ok := s.Describes(apiVersion, kind, full); ok {
			msg := fmt.Sprintf("%s, whose schema gives this field its merge rules (%s); a declared mergeKey may not change them, as a CRD may not",
				owner, how)
			if strings.HasPrefix(how, "atomic") {
				msg += " (to add an element to such a list, a JSON patch's add with a path ending in /- appends it)"
			}
			return nil, &DeclError{Entry: d.name, Field: d.Path.String(), First: true, Msg: msg}
		}
		next, err := t.WithListKeys(d.ListKeys)
		if err != nil {
			where, msg := d.Path.String(), err.Error()
			if de, ok := err.(*schema.DeclareError); ok && de.At != "" {
				where, msg = de.At, de.Msg
			}
			return nil, &DeclError{Entry: d.name, Field: where, First: true, Msg: msg}
		}
		t = next
	}
	return t, nil
}

func joinInts(is []int) string {
	parts := make([]string, len(is))
	for j, i := range is {
		parts[j] = strconv.Itoa(i)
	}
	return strings.Join(parts, ",")
}

// EmbeddedType returns the type of the document held in the string that
// steps (of a walk, fieldpath.Walk) lead to in item i of ix: the lists the
// declarations selecting the resource declare below that string. A
// declaration's path reaches the string when each of its first segments
// selects the step taken (fieldpath.Reaches); its remaining segments are
// in the document. nil: nothing declared there.
func (m *Meta) EmbeddedType(ix *selector.Index, i int, steps []fieldpath.Step[*yaml.Node]) (*schema.Type, error) {
	var t *schema.Type
	for _, d := range m.decls {
		if len(d.Path) <= len(steps) || !d.sel.Matches(ix.Resource(i)) || !fieldpath.Reaches(yamltree.Tree{}, d.Path, steps) {
			continue
		}
		next, err := t.WithListKeys(schema.ListKeys{Path: d.Path[len(steps):], Keys: d.Keys})
		if err != nil {
			return nil, &DeclError{Entry: d.name, Field: d.Path.String(), First: true, Msg: err.Error()}
		}
		t = next
	}
	return t, nil
}
