package plan

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// delete works out a Delete change: of a map key, or of a list element
// named by its index.
func (p *planner) delete(i int, c Change) error {
	path := c.Path
	last := path[len(path)-1]
	if last.Kind != fieldpath.Field && last.Kind != fieldpath.Index {
		return &locate.Error{Segment: len(path) - 1, Msg: fmt.Sprintf("Delete removes a map key or a list element; %s does not name one", last)}
	}
	places, err := p.d.Resolve(path[:len(path)-1], false, true)
	if err != nil {
		return err
	}
	for _, pl := range places {
		if err := p.deleteAt(pl, i, c); err != nil {
			return err
		}
	}
	return nil
}

// deleteAt works out change i, a Delete, at one place the path without
// its last segment leads to: a map, a list, or a string holding the
// document the key is in.
func (p *planner) deleteAt(pl locate.Place, i int, c Change) error {
	at := len(c.Path) - 1
	n := pl.N
	if pl.Kind != locate.InString && n.Kind == span.Scalar && n.Tag == span.StrTag {
		// The prefix ends at a string: the key is inside the document it
		// holds.
		pl.Kind, pl.At = locate.InString, at
	}
	if pl.Kind == locate.InString {
		p.nest(pl, i, c)
		return nil
	}
	idx, err := p.deleted(n, c.Path[at], at)
	if err != nil {
		return err
	}
	g := p.group(pl)
	g.Gone[idx] = true
	g.GoneAt[idx] = at
	p.touch(container, pl.Addr, i)
	p.touch(deleted, locate.AppendAddr(pl.Addr, idx), i)
	return nil
}

// deleted returns the index of the entry a Delete removes from n, named
// by the path's segment at seg: an element of a list by its index, else
// a key of a map.
func (p *planner) deleted(n *span.Node, s fieldpath.Segment, seg int) (int, error) {
	if n.Kind == span.Seq && s.Kind == fieldpath.Index {
		p.d.Open(n)
		return p.deletedElement(n, s.Index, seg)
	}
	return p.deletedKey(n, s.Key, seg)
}

// deletedElement checks that list n has element idx to delete, and that
// deleting it does not leave a block list's anchor or tag without a
// value.
func (p *planner) deletedElement(n *span.Node, idx, seg int) (int, error) {
	d := p.d
	if idx < 0 || idx >= len(n.Children) {
		return 0, &locate.Error{Segment: seg, Msg: fmt.Sprintf("no element %d in the %s%s (it has %d)", idx, d.Describe(n), d.Of(), len(n.Children))}
	}
	if len(n.Children) == 1 && !n.Flow && n.HasProperties() {
		return 0, &locate.Error{Segment: seg, Msg: "cannot empty a list that has an anchor or a tag" + d.Of()}
	}
	return idx, nil
}

// deletedKey returns the index of the key a Delete removes from n, the
// path's segment seg: an error when n is not a map or has no such key, or
// when the key is the last of a block map with an anchor or a tag.
func (p *planner) deletedKey(n *span.Node, key string, seg int) (int, error) {
	d := p.d
	if n.Kind != span.Map {
		return 0, d.Errorf(seg, "cannot delete %s from the %s, which is not a map", d.KeyName(key), d.Describe(n))
	}
	idx, err := d.FindKey(n, key, seg)
	if err != nil {
		return 0, err
	}
	if idx < 0 {
		return 0, &locate.Error{Segment: seg, Msg: fmt.Sprintf("no key %q in the %s%s%s", key, d.Describe(n), d.Of(), d.KeyList(n))}
	}
	if len(n.Children) == 1 && !n.Flow && n.HasProperties() {
		return 0, &locate.Error{Segment: seg, Msg: "cannot empty a map that has an anchor or a tag" + d.Of()}
	}
	return idx, nil
}
