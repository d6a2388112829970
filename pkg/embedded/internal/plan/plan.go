package plan

import (
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// Change is one edit of a batch: a value to set (Set, or the JSON text
// Text), or the map key Path names to delete.
type Change struct {
	Path   fieldpath.Path
	Set    func(old *yaml.Node) (*yaml.Node, error)
	Text   string
	Delete bool
	// Create adds what is missing on the way.
	Create bool
}

// Plan is what a batch of changes does to a document, in the order the
// changes gave it.
type Plan struct {
	// Replaces are the values written over existing ones (or over nulls,
	// with what a created path needs).
	Replaces []Replace
	// Nested are the strings holding documents that changes go into.
	Nested []*Nested
	// Groups are the maps and lists that gain or lose entries.
	Groups []*Group
}

// Replace is a value written over the node at a place.
type Replace struct {
	Place locate.Place
	Value *yaml.Node
	// Raw, when set, is the JSON text to write as it is (SetText).
	Raw string
}

// Nested is a string holding a document that changes edit: they are
// applied to it as one batch, with paths that start inside it.
type Nested struct {
	Place   locate.Place
	Where   fieldpath.Path
	Changes []Change
}

// Make plans changes on d. create applies Change.Create to every change.
// Errors are *locate.Error, or a Setter's own.
func Make(d *locate.Document, changes []Change, create bool) (*Plan, error) {
	p := &planner{d: d, create: create}
	for i, c := range changes {
		if err := p.change(i, c); err != nil {
			return nil, err
		}
	}
	if len(changes) > 1 {
		if err := p.overlaps(changes); err != nil {
			return nil, err
		}
	}
	return &p.plan, nil
}

// planner collects the plan of a batch of changes to one document.
type planner struct {
	d      *locate.Document
	create bool
	plan   Plan
	// touched records every place a change writes, for overlaps.
	touched []touch
	// groups and nested find the plan's groups and nested documents by
	// address.
	groups map[string]*Group
	nested map[string]*Nested
}

// change works out change i.
func (p *planner) change(i int, c Change) error {
	if len(c.Path) == 0 {
		return &locate.Error{Msg: "empty path"}
	}
	if c.Delete {
		return p.delete(i, c)
	}
	return p.set(i, c)
}

// replace writes v (or SetText's raw text) over the value at pl.
func (p *planner) replace(pl locate.Place, change int, v *yaml.Node, raw string) error {
	if err := p.writable(v, raw); err != nil {
		return err
	}
	p.plan.Replaces = append(p.plan.Replaces, Replace{Place: pl, Value: v, Raw: raw})
	p.touch(replaced, pl.Addr, change)
	return nil
}

// writable refuses a value this document cannot hold: JSON text
// (SetText) in a YAML document, a string that is not UTF-8.
func (p *planner) writable(v *yaml.Node, raw string) error {
	switch {
	case raw != "" && p.d.Format != span.JSON:
		return &locate.Error{Msg: "SetText writes JSON text, and the document is YAML" + p.d.Of()}
	case raw != "":
		return nil
	}
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	if v.Kind == yaml.ScalarNode && !utf8.ValidString(v.Value) {
		return &locate.Error{Msg: "the value written is not valid UTF-8 text" + p.d.Of()}
	}
	return nil
}

// nest hands change c, at the string at pl, to the batch of changes of the
// document that string holds, with the path left inside it.
func (p *planner) nest(pl locate.Place, change int, c Change) {
	key := locate.AddrKey(pl.Addr)
	nd := p.nested[key]
	if nd == nil {
		if p.nested == nil {
			p.nested = map[string]*Nested{}
		}
		nd = &Nested{Place: pl, Where: locate.JoinPath(p.d.Where, c.Path[:pl.At])}
		p.nested[key] = nd
		p.plan.Nested = append(p.plan.Nested, nd)
		p.touch(inside, pl.Addr, change)
	}
	c.Path = c.Path[pl.At:]
	nd.Changes = append(nd.Changes, c)
}
