package embedded

import (
	"sort"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// group is a map or list gaining or losing entries.
type group struct {
	p       place
	appends []appended
	gone    map[int]bool
	// goneAt is, for each entry deleted, the segment of the path that
	// names it, for messages.
	goneAt map[int]int
}

// appended is an entry a change adds.
type appended struct {
	change int
	seg    fieldpath.Segment
	v      *yaml.Node
	raw    string // JSON text to write as it is (SetText)
	want   *yaml.Node
}

// group returns the group of the map or list at p, made on first use.
func (b *batch) group(p place) *group {
	key := addrKey(p.addr)
	g := b.groups[key]
	if g == nil {
		if b.groups == nil {
			b.groups = map[string]*group{}
		}
		g = &group{p: p, gone: map[int]bool{}, goneAt: map[int]int{}}
		b.groups[key] = g
		b.groupOrder = append(b.groupOrder, key)
	}
	return g
}

// finishGroup writes the entries a map or list loses and gains.
func (b *batch) finishGroup(key string, g *group) error {
	k := len(g.p.n.Children)
	allGone := k > 0 && len(g.gone) == k
	switch {
	case b.oneByOne(g, allGone):
		return errOneByOne
	case allGone && len(g.appends) == 0:
		return b.emptyGroup(g)
	}
	c := check{gone: g.gone}
	if err := b.deleteEntries(g); err != nil {
		return err
	}
	if len(g.appends) > 0 {
		c.added = b.appendEntries(g, allGone)
	}
	b.checks[key] = c
	return nil
}

// oneByOne reports whether g is a YAML block map that loses its last
// entry, along with others or gaining new ones: which comments stay then
// depends on the order of the changes.
func (b *batch) oneByOne(g *group, allGone bool) bool {
	n := g.p.n
	k := len(n.Children)
	if b.d.format != YAML || n.Flow {
		return false
	}
	return allGone && k > 1 || len(g.appends) > 0 && g.gone[k-1]
}

// emptyGroup writes as {} a map that loses every entry and gains none:
// nothing would be left to show its layout.
func (b *batch) emptyGroup(g *group) error {
	e, err := b.d.emptyMap(g.p)
	if err != nil {
		return &Error{Msg: err.Error() + b.d.of()}
	}
	b.add(g.p.addr, e, check{want: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}})
	return nil
}

// deleteEntries writes the deletion of each entry g loses, in order.
func (b *batch) deleteEntries(g *group) error {
	idxs := make([]int, 0, len(g.gone))
	for i := range g.gone {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	for _, i := range idxs {
		e, err := b.d.deleteEntry(g.p, i, g.gone)
		if err != nil {
			return &Error{Segment: g.goneAt[i], Msg: err.Error() + b.d.of()}
		}
		e.depth = len(g.p.addr)
		b.edits = append(b.edits, e)
	}
	return nil
}

// appendEntries writes the entries g gains and returns what must read
// back.
func (b *batch) appendEntries(g *group, allGone bool) []addedCheck {
	d, n := b.d, g.p.n
	var e edit
	if d.format == JSON {
		e = d.addJSON(n, g.appends, allGone)
	} else {
		e = d.addYAML(n, g.appends, allGone)
	}
	e.depth = len(g.p.addr)
	b.edits = append(b.edits, e)
	added := make([]addedCheck, 0, len(g.appends))
	for _, a := range g.appends {
		ac := addedCheck{want: a.want}
		if n.Kind == span.Map {
			ac.key = a.seg.Key
		}
		added = append(added, ac)
	}
	return added
}
