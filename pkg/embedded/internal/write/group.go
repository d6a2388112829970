package write

import (
	"sort"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// group writes the entries a map or list loses and gains.
func (w *writer) group(g *plan.Group) error {
	k := len(g.Place.N.Children)
	allGone := k > 0 && len(g.Gone) == k
	switch {
	case w.oneByOne(g, allGone):
		return ErrOneByOne
	case allGone && len(g.Appends) == 0:
		return w.emptyGroup(g)
	}
	c := Check{Gone: g.Gone}
	if err := w.deleteEntries(g); err != nil {
		return err
	}
	if len(g.Appends) > 0 {
		c.Added = w.appendEntries(g, allGone)
	}
	w.checks[locate.AddrKey(g.Place.Addr)] = c
	return nil
}

// oneByOne reports whether g is a YAML block map that loses its last
// entry, along with others or gaining new ones, or a block list that
// loses its last element and gains new ones: which comments stay then
// depends on the order of the changes, and new elements would follow
// one that goes.
func (w *writer) oneByOne(g *plan.Group, allGone bool) bool {
	n := g.Place.N
	k := len(n.Children)
	if w.d.Format != span.YAML || n.Flow {
		return false
	}
	if n.Kind == span.Seq {
		return len(g.Appends) > 0 && g.Gone[k-1]
	}
	return allGone && k > 1 || len(g.Appends) > 0 && g.Gone[k-1]
}

// emptyGroup writes as {} a map, and as [] a list, that loses every entry
// and gains none: nothing would be left to show its layout.
func (w *writer) emptyGroup(g *plan.Group) error {
	e, err := w.emptyCollection(g.Place)
	if err != nil {
		return &locate.Error{Msg: err.Error() + w.d.Of()}
	}
	want := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if g.Place.N.Kind == span.Seq {
		want = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	}
	w.add(g.Place.Addr, e, Check{Want: want})
	return nil
}

// deleteEntries writes the deletion of each entry g loses, in order: the
// elements of a YAML block list together, as the lines they take
// (deleteBlockElements).
func (w *writer) deleteEntries(g *plan.Group) error {
	if n := g.Place.N; n.Kind == span.Seq && !n.Flow && w.d.Format == span.YAML {
		return w.deleteElements(g)
	}
	idxs := make([]int, 0, len(g.Gone))
	for i := range g.Gone {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	for _, i := range idxs {
		e, err := w.deleteEntry(g.Place, i, g.Gone)
		if err != nil {
			return &locate.Error{Segment: g.GoneAt[i], Msg: err.Error() + w.d.Of()}
		}
		e.Depth = len(g.Place.Addr)
		w.edits = append(w.edits, e)
	}
	return nil
}

// deleteElements writes the deletion of the elements the block list of g
// loses.
func (w *writer) deleteElements(g *plan.Group) error {
	edits, err := w.deleteBlockElements(g.Place.N, g.Gone)
	if err != nil {
		first := len(g.Place.N.Children)
		for i := range g.Gone {
			first = min(first, i)
		}
		return &locate.Error{Segment: g.GoneAt[first], Msg: err.Error() + w.d.Of()}
	}
	for _, e := range edits {
		e.Depth = len(g.Place.Addr)
		w.edits = append(w.edits, e)
	}
	return nil
}

// appendEntries writes the entries g gains and returns what must read
// back.
func (w *writer) appendEntries(g *plan.Group, allGone bool) []Added {
	n := g.Place.N
	var e Edit
	if w.d.Format == span.JSON {
		e = w.addJSON(n, g.Appends, allGone)
	} else {
		e = w.addYAML(n, g.Appends, allGone)
	}
	e.Depth = len(g.Place.Addr)
	w.edits = append(w.edits, e)
	added := make([]Added, 0, len(g.Appends))
	for _, a := range g.Appends {
		ac := Added{Want: encode.ReadBack(w.d.Format, a.Value)}
		if n.Kind == span.Map {
			ac.Key = a.Seg.Key
		}
		added = append(added, ac)
	}
	return added
}
