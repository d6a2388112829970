package plan

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// touchKind is what a change does at a place it touches.
type touchKind uint8

const (
	replaced  touchKind = iota // the value at addr is rewritten
	deleted                    // the entry at addr goes
	container                  // entries are added to or deleted from addr
	inside                     // the document in the string at addr is edited
)

// touch is a place, by address, that change touches, and how.
type touch struct {
	kind   touchKind
	addr   string
	change int
}

// touch records that change touches addr.
func (p *planner) touch(kind touchKind, addr []int, change int) {
	p.touched = append(p.touched, touch{kind, locate.AddrKey(addr), change})
}

// overlaps refuses changes that write or delete at or inside the same
// place, or create the same key.
func (p *planner) overlaps(changes []Change) error {
	i, j, found := p.blockedTouch()
	if !found {
		i, j, found = p.createdTwice()
	}
	if !found {
		return nil
	}
	if i > j {
		i, j = j, i
	}
	return &locate.Error{Msg: fmt.Sprintf("the changes at %s and %s overlap: apply them one after the other", changes[i].Path, changes[j].Path) + p.d.Of()}
}

// blockedTouch finds two changes of which one rewrites or deletes a place
// and the other touches that place, or a place below it.
func (p *planner) blockedTouch() (int, int, bool) {
	blocked := map[string]int{}
	for _, t := range p.touched {
		if t.kind != replaced && t.kind != deleted {
			continue
		}
		if j, ok := blocked[t.addr]; ok {
			return j, t.change, true
		}
		blocked[t.addr] = t.change
	}
	for _, t := range p.touched {
		if j, ok := blocker(blocked, t); ok {
			return j, t.change, true
		}
	}
	return 0, 0, false
}

// blocker returns the change, among those blocked holds by address, that
// rewrites or deletes a place above t, or t's own place when t adds or
// deletes entries there or edits inside it.
func blocker(blocked map[string]int, t touch) (int, bool) {
	a := t.addr
	if t.kind == container || t.kind == inside {
		if j, ok := blocked[a]; ok {
			return j, true
		}
	}
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != '/' {
			continue
		}
		if j, ok := blocked[a[:i]]; ok {
			return j, true
		}
	}
	return 0, false
}

// createdTwice finds two changes that create the same entry: a key is
// created once; a list gains one element, or several that [key=value]
// tells apart.
func (p *planner) createdTwice() (int, int, bool) {
	for _, g := range p.plan.Groups {
		for x := range g.Appends {
			for y := x + 1; y < len(g.Appends); y++ {
				if !g.distinct(g.Appends[x].Seg, g.Appends[y].Seg) {
					return g.Appends[x].Change, g.Appends[y].Change, true
				}
			}
		}
	}
	return 0, 0, false
}

// distinct reports whether s and t create different entries of the group.
func (g *Group) distinct(s, t fieldpath.Segment) bool {
	if g.Place.N.Kind == span.Seq {
		return s.Kind == fieldpath.Match && t.Kind == fieldpath.Match && s.Key == t.Key && s.Value != t.Value
	}
	return s.Key != t.Key
}
