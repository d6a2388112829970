package embedded

import (
	"errors"
	"fmt"
	"sort"

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
	// groups: maps and lists that gain or lose entries, by address.
	groups     map[string]*group
	groupOrder []string
	// nested: strings holding documents that changes go into.
	nested      map[string]*nested
	nestedOrder []string
}

type touchKind uint8

const (
	replaced  touchKind = iota // the value at addr is rewritten
	deleted                    // the entry at addr goes
	container                  // entries are added to or deleted from addr
	inside                     // the document in the string at addr is edited
)

type touch struct {
	kind   touchKind
	addr   string
	change int
}

// group is a map or list gaining or losing entries.
type group struct {
	p       place
	appends []appended
	gone    map[int]bool
	// goneAt: for each entry deleted, the segment of the path that names
	// it, for messages.
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

// nested is a string whose document changes edit: they are applied to it
// as one batch.
type nested struct {
	p       place
	where   fieldpath.Path
	changes []Change
}

func (b *batch) touch(kind touchKind, addr []int, change int) {
	b.touched = append(b.touched, touch{kind, addrKey(addr), change})
}

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

func (b *batch) add(addr []int, e edit, c check) {
	e.depth = len(addr)
	b.edits = append(b.edits, e)
	b.checks[addrKey(addr)] = c
}

// set works out a Set or SetText change.
func (b *batch) set(i int, c Change) error {
	d := b.d
	set := c.Set
	if set == nil {
		vd, err := span.ParseJSON(c.Text)
		if err != nil {
			return &Error{Msg: fmt.Sprintf("the value to write is not valid JSON: %v", err)}
		}
		v := vd.ToYAML(vd.Root)
		set = func(*yaml.Node) (*yaml.Node, error) { return v, nil }
		d.raw = c.Text
	}
	path := c.Path
	places, err := d.resolve(d.Root, path, 0, nil, nil, c.Create || b.opts.Create, true)
	if err != nil {
		return err
	}
	for _, p := range places {
		switch p.kind {
		case inString:
			if d.raw != "" && d.format == JSON {
				// The value is JSON text for this document, not for the
				// document in the string.
				return d.errorf(p.at, "cannot write JSON text into the string at %s", path[:p.at])
			}
			b.nest(p, i, c)
		case addTo:
			v, want, err := d.addValue(p, path, set)
			if err != nil {
				return err
			}
			g := b.group(p)
			g.appends = append(g.appends, appended{change: i, seg: path[p.at], v: v, raw: d.raw, want: want})
			b.touch(container, p.addr, i)
		case overNull:
			if d.raw != "" {
				return d.errorf(p.at, "cannot create %s: SetText writes only the last key or element", path[p.at:])
			}
			v, err := build(path, p.at, set)
			if err != nil {
				return d.wrapBuild(err)
			}
			if err := b.replace(p, i, v); err != nil {
				return err
			}
		default:
			v, err := set(d.ToYAML(p.n))
			if err != nil {
				return err
			}
			if err := b.replace(p, i, v); err != nil {
				return err
			}
		}
	}
	return nil
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
		n := p.n
		if p.kind != inString && n.Kind == span.Scalar && n.Tag == span.StrTag {
			// The prefix ends at a string: the key is inside the document
			// it holds.
			p.kind, p.at = inString, len(path)-1
		}
		if p.kind == inString {
			b.nest(p, i, c)
			continue
		}
		if n.Kind != span.Map {
			return d.errorf(len(path)-1, "cannot delete the key %q from the %s, which is not a map", last.Key, d.describe(n))
		}
		idx, err := d.findKey(n, last.Key, len(path)-1)
		if err != nil {
			return err
		}
		if idx < 0 {
			return &Error{Segment: len(path) - 1, Msg: fmt.Sprintf("no key %q in the %s%s%s", last.Key, d.describe(n), d.of(), keyList(n))}
		}
		if n.YAMLInfo != nil && len(n.Children) == 1 && !n.Flow && (n.Source.Anchor != "" || n.ExplicitTag) {
			return &Error{Segment: len(path) - 1, Msg: "cannot empty a map that has an anchor or a tag" + d.of()}
		}
		g := b.group(p)
		g.gone[idx] = true
		g.goneAt[idx] = len(path) - 1
		b.touch(container, p.addr, i)
		b.touch(deleted, appendAddr(p.addr, idx), i)
	}
	return nil
}

func (b *batch) onlyDeletes(changes []Change) bool {
	for _, c := range changes {
		if !c.Delete {
			return false
		}
	}
	return true
}

// overlaps refuses changes that write or delete at or inside the same
// place, or create the same key.
func (b *batch) overlaps(changes []Change) error {
	conflict := func(i, j int) error {
		if i > j {
			i, j = j, i
		}
		return &Error{Msg: fmt.Sprintf("the changes at %s and %s overlap: apply them one after the other", changes[i].Path, changes[j].Path) + b.d.of()}
	}
	// A place rewritten or deleted blocks every place at or below it.
	blocked := map[string]int{}
	for _, t := range b.touched {
		if t.kind != replaced && t.kind != deleted {
			continue
		}
		if j, ok := blocked[t.addr]; ok {
			return conflict(j, t.change)
		}
		blocked[t.addr] = t.change
	}
	for _, t := range b.touched {
		a := t.addr
		if t.kind == container || t.kind == inside {
			if j, ok := blocked[a]; ok {
				return conflict(j, t.change)
			}
		}
		for i := len(a) - 1; i >= 0; i-- {
			if a[i] != '/' {
				continue
			}
			if j, ok := blocked[a[:i]]; ok {
				return conflict(j, t.change)
			}
		}
	}
	// A key is created once; a list gains one element, or several that
	// [key=value] tells apart.
	for _, key := range b.groupOrder {
		g := b.groups[key]
		for x := range g.appends {
			for y := x + 1; y < len(g.appends); y++ {
				s, t := g.appends[x].seg, g.appends[y].seg
				distinct := s.Key != t.Key
				if g.p.n.Kind == span.Seq {
					distinct = s.Kind == fieldpath.Match && t.Kind == fieldpath.Match && s.Key == t.Key && s.Value != t.Value
				}
				if !distinct {
					return conflict(g.appends[x].change, g.appends[y].change)
				}
			}
		}
	}
	return nil
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

// finishGroup writes the entries a map or list loses and gains.
func (b *batch) finishGroup(key string, g *group) error {
	d, n := b.d, g.p.n
	k := len(n.Children)
	allGone := k > 0 && len(g.gone) == k
	block := d.format == YAML && !n.Flow
	if block && (allGone && k > 1 || len(g.appends) > 0 && g.gone[k-1]) {
		// Which comments stay with a YAML block map that loses its last
		// entry depends on the order of the changes.
		return errOneByOne
	}
	if allGone && len(g.appends) == 0 {
		// Nothing would be left to show the map's layout: write it {}.
		e, err := d.emptyMap(g.p)
		if err != nil {
			return &Error{Msg: err.Error() + d.of()}
		}
		b.add(g.p.addr, e, check{want: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}})
		return nil
	}
	c := check{gone: g.gone}
	idxs := make([]int, 0, len(g.gone))
	for i := range g.gone {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	for _, i := range idxs {
		e, err := d.deleteEntry(g.p, i, g.gone)
		if err != nil {
			return &Error{Segment: g.goneAt[i], Msg: err.Error() + d.of()}
		}
		e.depth = len(g.p.addr)
		b.edits = append(b.edits, e)
	}
	if len(g.appends) > 0 {
		var e edit
		if d.format == JSON {
			e = d.addJSON(n, g.appends, allGone)
		} else {
			e = d.addYAML(n, g.appends, allGone)
		}
		e.depth = len(g.p.addr)
		b.edits = append(b.edits, e)
		for _, a := range g.appends {
			ac := addedCheck{want: a.want}
			if n.Kind == span.Map {
				ac.key = a.seg.Key
			}
			c.added = append(c.added, ac)
		}
	}
	b.checks[key] = c
	return nil
}
