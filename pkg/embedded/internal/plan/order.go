package plan

import (
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// OneByOne orders changes to be applied one after another, each to the
// text the one before left, with the meaning they have as one batch, where
// every path is resolved in the text as given: the changes in their order,
// but those that delete a list element by its index last, from the end of
// the document back, so that no element is deleted before a change that
// names an element after it.
func OneByOne(changes []Change) []Change {
	var out, elements []Change
	for _, c := range changes {
		if c.Delete && c.Path[len(c.Path)-1].Kind == fieldpath.Index {
			elements = append(elements, c)
			continue
		}
		out = append(out, c)
	}
	slices.SortStableFunc(elements, func(a, b Change) int { return comparePaths(b.Path, a.Path) })
	return append(out, elements...)
}

// comparePaths orders paths as the places they name come in a document:
// indexes by number, keys by text (the order of a map's keys does not
// matter here), a path before the paths that go on from it.
func comparePaths(a, b fieldpath.Path) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x.Kind == fieldpath.Index && y.Kind == fieldpath.Index {
			if c := x.Index - y.Index; c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(x.String(), y.String()); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}
