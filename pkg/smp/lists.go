package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// listMarkers are the list-wide directives: an element that is exactly
// {$patch: replace} (the list becomes the other elements) or
// {$patch: delete} (the list field is removed), as in apimachinery and
// kustomize. {$patch: merge} is accepted and changes nothing.
type listMarkers struct {
	replace, delete bool
}

// add notes what a marker's directive asks for.
func (mk *listMarkers) add(dir string) {
	switch dir {
	case directiveReplace:
		mk.replace = true
	case directiveDelete:
		mk.delete = true
	}
}

// directive is the $patch the markers put on the whole list, "" when they
// leave it to merge.
func (mk listMarkers) directive() string {
	switch {
	case mk.replace:
		return directiveReplace
	case mk.delete:
		return directiveDelete
	}
	return ""
}

// isMarker reports whether a list element is a list-wide directive: a map
// whose only key is $patch.
func isMarker(e *yaml.Node) bool {
	e = yamltree.Resolve(e)
	return e.Kind == yaml.MappingNode && len(e.Content) == 2 && yamltree.Resolve(e.Content[0]).Value == keyPatch
}

// scanMarkers reads and checks the list-wide directives of patch list p.
func (m *merger) scanMarkers(p *yaml.Node) (listMarkers, error) {
	var mk listMarkers
	for _, e := range p.Content {
		if !isMarker(e) {
			continue
		}
		dir, err := m.mapDirective(yamltree.Resolve(e))
		if err != nil {
			return mk, err
		}
		mk.add(dir)
	}
	if mk.replace && mk.delete {
		return mk, m.errorf("the list asks for both $patch: replace and $patch: delete")
	}
	return mk, m.refusePatch(mk.directive())
}

// listStrategy is how a list of type t merges: by keys, as a set, or
// replaced. A keyed list without keys is replaced: there is nothing to
// match its elements by.
func listStrategy(t *schema.Type) (schema.ListStrategy, []string) {
	switch strategy, keys := t.List(); {
	case strategy == schema.MergeByKeys && len(keys) > 0, strategy == schema.Set:
		return strategy, keys
	}
	return schema.Replace, nil
}

// list merges patch list p into document node d by the strategy of t.
func (m *merger) list(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	mk, err := m.scanMarkers(p)
	if err != nil {
		return nil, err
	}
	strategy, keys := listStrategy(t)
	switch {
	case mk.delete:
		return nil, nil
	case m.fill:
		return m.fillList(d, p, t, strategy, keys)
	case strategy == schema.Replace:
		return m.replaceList(d, p, t)
	}
	return m.mergeList(d, p, t, strategy, keys, mk.replace)
}

// mergeList merges patch list p into the document's list in place: by
// keys, or as a set. With replace ({$patch: replace} in it) the list is
// emptied first, and what the patch holds is new as a whole.
func (m *merger) mergeList(d, p *yaml.Node, t *schema.Type, strategy schema.ListStrategy, keys []string, replace bool) (*yaml.Node, error) {
	d, err := m.own(d, p, yaml.SequenceNode, replace)
	if err != nil {
		return nil, err
	}
	defer settleStyle(d, p, len(d.Content) == 0)
	if strategy == schema.Set {
		return d, m.mergeSet(d, p, t)
	}
	if replace {
		m.whole++
		defer func() { m.whole-- }()
	}
	return d, m.mergeKeyed(d, p, t, keys)
}

// newElement builds a list element from a patch element alone. A null element
// is kept (it is a value in a list, not a deletion); $patch: delete on an
// element needs merge keys to say what to delete.
func (m *merger) newElement(pe *yaml.Node, et *schema.Type, idx int) (*yaml.Node, error) {
	if rp := yamltree.Resolve(pe); yamltree.IsNull(rp) {
		return shell(rp), nil
	}
	m.pushElem(idx, nil, nil)
	r, err := m.value(nil, pe, et)
	if err != nil {
		return nil, err
	}
	m.pop()
	if r == nil {
		return nil, m.errorf("element %d has $patch: delete, but this list has no merge keys to find the element by; "+
			"list all remaining elements instead (or use $deleteFromPrimitiveList for values)", idx)
	}
	return r, nil
}

// replaceList gives the document the patch's list (atomic lists, and lists the
// schema knows nothing about). A list equal to the patch's is left untouched,
// comments and quoting included.
func (m *merger) replaceList(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	content, err := m.newElements(p, t)
	if err != nil {
		return nil, err
	}
	n := shell(p)
	n.Content = content
	settleStyle(n, p, true)
	return m.replaceWith(d, n, p), nil
}

// newElements builds the elements of patch list p, its markers left out.
func (m *merger) newElements(p *yaml.Node, t *schema.Type) ([]*yaml.Node, error) {
	content := make([]*yaml.Node, 0, len(p.Content))
	for idx, pe := range p.Content {
		if isMarker(pe) {
			continue
		}
		r, err := m.newElement(pe, t.ElementFor(pe), idx)
		if err != nil {
			return nil, err
		}
		content = append(content, r)
	}
	return content, nil
}

// mergeSet merges a list of values as a set: values of the patch that the
// list lacks are appended, in patch order; the list's own order and content
// (duplicates included) stay as they are.
func (m *merger) mergeSet(d, p *yaml.Node, t *schema.Type) error {
	for idx, pe := range p.Content {
		if isMarker(pe) {
			continue
		}
		raw := pe
		pe = yamltree.Resolve(pe)
		cand := pe
		if pe.Kind != yaml.ScalarNode {
			// Build the element first: the patch may hold directives, and the
			// same errors must be reported whether or not the value exists.
			r, err := m.newElement(raw, t.ElementFor(raw), idx)
			if err != nil {
				return err
			}
			cand = r
		}
		if containsDeep(d.Content, cand) {
			continue
		}
		if cand == pe {
			cand = shell(pe)
		}
		d.Content = append(d.Content, cand)
	}
	return nil
}

func containsDeep(list []*yaml.Node, v *yaml.Node) bool {
	for _, e := range list {
		if deepEqual(e, v) {
			return true
		}
	}
	return false
}
