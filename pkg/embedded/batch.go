package embedded

import (
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// batch collects the edits of a set of changes to one parsed document.
type batch struct {
	d      *doc
	opts   Options
	edits  []edit
	checks map[string]check
	// touched records every place a change writes, for overlaps.
	touched []touch
	// groups holds the maps and lists that gain or lose entries, by
	// address.
	groups     map[string]*group
	groupOrder []string
	// nested holds the strings holding documents that changes go into.
	nested      map[string]*nested
	nestedOrder []string
}

// nested is a string whose document changes edit: they are applied to it
// as one batch.
type nested struct {
	p       place
	where   fieldpath.Path
	changes []Change
}

// nest hands change c, at the string at p, to the batch of changes of the
// document that string holds, with the path left inside it.
func (b *batch) nest(p place, change int, c Change) {
	key := addrKey(p.addr)
	nd := b.nested[key]
	if nd == nil {
		if b.nested == nil {
			b.nested = map[string]*nested{}
		}
		nd = &nested{p: p, where: joinPath(b.opts.Where, c.Path[:p.at])}
		b.nested[key] = nd
		b.nestedOrder = append(b.nestedOrder, key)
		b.touch(inside, p.addr, change)
	}
	c.Path = c.Path[p.at:]
	nd.changes = append(nd.changes, c)
}

// replace writes v over the value at p.
func (b *batch) replace(p place, change int, v *yaml.Node) error {
	e, c, err := b.d.replace(p, v)
	if err != nil {
		return b.asError(err, p)
	}
	b.add(p.addr, e, c)
	b.touch(replaced, p.addr, change)
	return nil
}

// asError makes an *Error, which names the segment, of an error found
// while writing the value at p (fuzz finding: "cannot find the ':' after the
// key" came back bare, for the empty key of "&0:").
func (b *batch) asError(err error, p place) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Segment: max(p.at-1, 0), Msg: err.Error() + b.d.of()}
}

// add records edit e of the value at addr and what verify checks there.
func (b *batch) add(addr []int, e edit, c check) {
	e.depth = len(addr)
	b.edits = append(b.edits, e)
	b.checks[addrKey(addr)] = c
}

// plan works out the edits of changes: each change on its own, then, once
// none overlaps another, the documents in strings that changes go into and
// the maps and lists that gain or lose entries.
func (b *batch) plan(changes []Change) error {
	for i, c := range changes {
		if err := b.change(i, c); err != nil {
			return err
		}
	}
	if len(changes) > 1 {
		if err := b.overlaps(changes); err != nil {
			return err
		}
	}
	for _, key := range b.nestedOrder {
		if err := b.finishNested(b.nested[key]); err != nil {
			return err
		}
	}
	for _, key := range b.groupOrder {
		if err := b.finishGroup(key, b.groups[key]); err != nil {
			return err
		}
	}
	return nil
}

// change works out change i.
func (b *batch) change(i int, c Change) error {
	if len(c.Path) == 0 {
		return &Error{Msg: "empty path"}
	}
	var err error
	if c.Delete {
		err = b.delete(i, c)
	} else {
		err = b.set(i, c)
	}
	b.d.raw = ""
	return err
}

// set works out a Set or SetText change.
func (b *batch) set(i int, c Change) error {
	d := b.d
	set, err := b.setter(c)
	if err != nil {
		return err
	}
	places, err := d.resolve(d.Root, c.Path, 0, nil, nil, c.Create || b.opts.Create, true)
	if err != nil {
		return err
	}
	for _, p := range places {
		if err := b.setAt(p, i, c, set); err != nil {
			return err
		}
	}
	return nil
}

// setter is the Setter of a change: its own, or, for SetText, one that
// returns the JSON text parsed, which the doc then holds (raw) to write as
// it is.
func (b *batch) setter(c Change) (Setter, error) {
	if c.Set != nil {
		return c.Set, nil
	}
	vd, err := span.ParseJSON(c.Text)
	if err != nil {
		return nil, &Error{Msg: fmt.Sprintf("the value to write is not valid JSON: %v", err)}
	}
	v := vd.ToYAML(vd.Root)
	b.d.raw = c.Text
	return func(*yaml.Node) (*yaml.Node, error) { return v, nil }, nil
}

// setAt works out change i at one place it leads to, by the kind of place.
func (b *batch) setAt(p place, i int, c Change, set Setter) error {
	d := b.d
	switch p.kind {
	case inString:
		if d.raw != "" && d.format == JSON {
			// The value is JSON text for this document, not for the
			// document in the string.
			return d.errorf(p.at, "cannot write JSON text into the string at %s", c.Path[:p.at])
		}
		b.nest(p, i, c)
		return nil
	case addTo:
		return b.addAt(p, i, c.Path, set)
	case overNull:
		return b.buildAt(p, i, c.Path, set)
	}
	v, err := set(d.ToYAML(p.n))
	if err != nil {
		return err
	}
	return b.replace(p, i, v)
}

// addAt adds the key or element path[p.at] to the map or list at p.
func (b *batch) addAt(p place, i int, path fieldpath.Path, set Setter) error {
	v, want, err := b.d.addValue(p, path, set)
	if err != nil {
		return err
	}
	g := b.group(p)
	g.appends = append(g.appends, appended{change: i, seg: path[p.at], v: v, raw: b.d.raw, want: want})
	b.touch(container, p.addr, i)
	return nil
}

// buildAt replaces the null at p with the maps and lists path[p.at:]
// needs.
func (b *batch) buildAt(p place, i int, path fieldpath.Path, set Setter) error {
	if b.d.raw != "" {
		return b.d.errorf(p.at, "cannot create %s: SetText writes only the last key or element", path[p.at:])
	}
	v, err := build(path, p.at, set)
	if err != nil {
		return b.d.wrapBuild(err)
	}
	return b.replace(p, i, v)
}

// delete works out a Delete change.
func (b *batch) delete(i int, c Change) error {
	d, path := b.d, c.Path
	last := path[len(path)-1]
	if last.Kind != fieldpath.Field && last.Kind != fieldpath.Index {
		return &Error{Segment: len(path) - 1, Msg: fmt.Sprintf("Delete removes a map key; %s does not name one", last)}
	}
	places, err := d.resolve(d.Root, path[:len(path)-1], 0, nil, nil, false, true)
	if err != nil {
		return err
	}
	for _, p := range places {
		if err := b.deleteAt(p, i, c); err != nil {
			return err
		}
	}
	return nil
}

// deleteAt works out change i, a Delete, at one place the path without
// its last segment leads to: a map, or a string holding the document the
// key is in.
func (b *batch) deleteAt(p place, i int, c Change) error {
	at := len(c.Path) - 1
	n := p.n
	if p.kind != inString && n.Kind == span.Scalar && n.Tag == span.StrTag {
		// The prefix ends at a string: the key is inside the document it
		// holds.
		p.kind, p.at = inString, at
	}
	if p.kind == inString {
		b.nest(p, i, c)
		return nil
	}
	idx, err := b.d.deletedKey(n, c.Path[at].Key, at)
	if err != nil {
		return err
	}
	g := b.group(p)
	g.gone[idx] = true
	g.goneAt[idx] = at
	b.touch(container, p.addr, i)
	b.touch(deleted, appendAddr(p.addr, idx), i)
	return nil
}

// deletedKey returns the index of the key a Delete removes from n, the
// path's segment seg: an error when n is not a map or has no such key, or
// when the key is the last of a block map with an anchor or a tag.
func (d *doc) deletedKey(n *span.Node, key string, seg int) (int, error) {
	if n.Kind != span.Map {
		return 0, d.errorf(seg, "cannot delete the key %q from the %s, which is not a map", key, d.describe(n))
	}
	idx, err := d.findKey(n, key, seg)
	if err != nil {
		return 0, err
	}
	if idx < 0 {
		return 0, &Error{Segment: seg, Msg: fmt.Sprintf("no key %q in the %s%s%s", key, d.describe(n), d.of(), keyList(n))}
	}
	if n.YAMLInfo != nil && len(n.Children) == 1 && !n.Flow && (n.Source.Anchor != "" || n.ExplicitTag) {
		return 0, &Error{Segment: seg, Msg: "cannot empty a map that has an anchor or a tag" + d.of()}
	}
	return idx, nil
}

// onlyDeletes reports whether every change deletes, for messages.
func (b *batch) onlyDeletes(changes []Change) bool {
	for _, c := range changes {
		if !c.Delete {
			return false
		}
	}
	return true
}

// finishNested edits the document in a string with the changes that go
// into it, and writes the string back.
func (b *batch) finishNested(nd *nested) error {
	s, err := Edit(nd.p.n.Value, b.opts.nested(nd.where), nd.changes...)
	if err != nil {
		return shift(err, nd.p.at)
	}
	e, c, err := b.d.replace(nd.p, &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: s})
	if err != nil {
		return b.asError(err, nd.p)
	}
	b.add(nd.p.addr, e, c)
	return nil
}
