package plan

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// setter is what a Set or SetText change writes: the Setter, and for
// SetText the JSON text to write as it is.
type setter struct {
	set func(*yaml.Node) (*yaml.Node, error)
	raw string
}

// set works out a Set or SetText change.
func (p *planner) set(i int, c Change) error {
	s, err := setterOf(c)
	if err != nil {
		return err
	}
	places, err := p.d.Resolve(c.Path, c.Create || p.create, true)
	if err != nil {
		return err
	}
	for _, pl := range places {
		if err := p.setAt(pl, i, c, s); err != nil {
			return err
		}
	}
	return nil
}

// setterOf is the setter of a change: its own Setter, or, for SetText,
// one that returns the JSON text parsed, with the text to write as it is.
func setterOf(c Change) (setter, error) {
	if c.Set != nil {
		return setter{set: c.Set}, nil
	}
	vd, err := span.ParseJSON(c.Text)
	if err != nil {
		return setter{}, &locate.Error{Msg: fmt.Sprintf("the value to write is not valid JSON: %v", err)}
	}
	v := vd.ToYAML(vd.Root)
	return setter{set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }, raw: c.Text}, nil
}

// setAt works out change i at one place it leads to, by the kind of place.
func (p *planner) setAt(pl locate.Place, i int, c Change, s setter) error {
	switch pl.Kind {
	case locate.InString:
		if s.raw != "" && p.d.Format == span.JSON {
			// The value is JSON text for this document, not for the
			// document in the string.
			return p.d.Errorf(pl.At, "cannot write JSON text into the string at %s", c.Path[:pl.At])
		}
		p.nest(pl, i, c)
		return nil
	case locate.AddTo:
		return p.addAt(pl, i, c.Path, s)
	case locate.OverNull:
		return p.buildAt(pl, i, c.Path, s)
	}
	v, err := s.set(p.d.ToYAML(pl.N))
	if err != nil {
		return err
	}
	return p.replace(pl, i, v, s.raw)
}

// addAt adds the key or element path[pl.At] to the map or list at pl.
func (p *planner) addAt(pl locate.Place, i int, path fieldpath.Path, s setter) error {
	v, err := p.addValue(pl, path, s)
	if err != nil {
		return err
	}
	g := p.group(pl)
	g.Appends = append(g.Appends, Append{Change: i, Seg: path[pl.At], Value: v, Raw: s.raw})
	p.touch(container, pl.Addr, i)
	return nil
}

// addValue is the value a change adds at pl: a key of a map, an element
// of a list.
func (p *planner) addValue(pl locate.Place, path fieldpath.Path, s setter) (*yaml.Node, error) {
	if err := p.checkAdd(pl, path, s); err != nil {
		return nil, err
	}
	var v *yaml.Node
	var err error
	if pl.N.Kind == span.Seq && path[pl.At].Kind == fieldpath.Match {
		v, err = p.buildElementOf(pl.N, path, pl.At, s.set)
	} else {
		v, err = build(path, pl.At+1, s.set)
	}
	if err != nil {
		return nil, p.withHolder(err)
	}
	return v, nil
}

// checkAdd refuses what a change cannot add at pl: SetText's text
// anywhere but as the last key or element of a JSON document, and a key
// that clashes with one of the map's.
func (p *planner) checkAdd(pl locate.Place, path fieldpath.Path, s setter) error {
	d, n, seg := p.d, pl.N, path[pl.At]
	if s.raw != "" && (pl.At+1 != len(path) || seg.Kind == fieldpath.Match || d.Format != span.JSON) {
		return d.Errorf(pl.At, "cannot create %s: SetText writes only the last key or element of a JSON document", path[pl.At:])
	}
	if n.Kind == span.Map {
		return d.NewKeyClash(n, seg.Key, pl.At)
	}
	return nil
}

// buildAt replaces the null at pl with the maps and lists path[pl.At:]
// needs.
func (p *planner) buildAt(pl locate.Place, i int, path fieldpath.Path, s setter) error {
	if s.raw != "" {
		return p.d.Errorf(pl.At, "cannot create %s: SetText writes only the last key or element", path[pl.At:])
	}
	v, err := build(path, pl.At, s.set)
	if err != nil {
		return p.withHolder(err)
	}
	return p.replace(pl, i, v, "")
}

// withHolder adds the name of the holder to a message of build.
func (p *planner) withHolder(err error) error {
	if e, ok := err.(*locate.Error); ok {
		return &locate.Error{Segment: e.Segment, Msg: e.Msg + p.d.Of()}
	}
	return err
}
