package replacement

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// createHint is the advice for a missing field: escape the dots of a dotted
// key, or else the field probably meant, if any, and that options.create
// adds the field. A secret resource's keys are not suggested.
func createHint(n *yaml.Node, path fieldpath.Path, i int, secret bool) string {
	if h := fieldpath.DottedKeyHint[*yaml.Node](yamltree.Tree{}, n, path, i); h != "" {
		return h
	}
	near := ""
	if !secret {
		var keys []string
		for j := 0; j+1 < len(n.Content); j += 2 {
			keys = append(keys, n.Content[j].Value)
		}
		near = suggest.Nearest(path[i].Key, keys)
	}
	return newFieldHint(near, "field")
}

// newFieldHint is the advice for a missing field or key (what): the one
// near it, if any, then options.create.
func newFieldHint(near, what string) string {
	if near == "" {
		return " (options.create: true adds it)"
	}
	return fmt.Sprintf(" (did you mean %q? if the %s is new, options.create: true adds it)", near, what)
}

// noElement is the advice for a matcher that selects no element of list:
// what its value most likely meant, or the value nearest and those there
// (fieldpath.NoMatch), and for a literal value that options.create adds
// an element. A pattern's element would be named after the pattern.
//
// Where kustomize's reading would select elements, withUnanchoredHint
// names them instead: only what the value meant is said here.
func (s *setter) noElement(list *yaml.Node, i int) string {
	seg := s.path[i]
	if s.divergesAt(i) {
		return seg.MeantHint()
	}
	hint, literal := fieldpath.NoMatch[*yaml.Node](yamltree.Tree{}, list, seg, s.secret)
	if literal {
		hint += createOne
	}
	return hint
}

// createOne is the advice to create a missing element.
const createOne = " (options.create: true adds one)"

// creatable reports whether options.create is advice for what path[i]
// names: a key, an index, or a matcher's literal value, never a pattern
// (fieldpath.Segment.Creatable).
func (s *setter) creatable(i int) bool {
	return i >= len(s.path) || s.path[i].Kind != fieldpath.Match || s.path[i].Creatable()
}
