package locate

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Resolve returns the places path leads to from the root. With create and
// edit, a missing key or element is a place to add it, and a null on the
// way one to build what the rest of the path needs; with edit, an alias on
// the way is an error (writing through it would change what its anchor
// holds), and without, it is followed. A string with segments left is a
// place too: the path goes on in the document it holds.
func (d *Document) Resolve(path fieldpath.Path, create, edit bool) ([]Place, error) {
	r := resolver{d: d, path: path, create: create, edit: edit}
	return r.resolve(d.Root, 0, nil, nil)
}

// resolver resolves one path.
type resolver struct {
	d            *Document
	path         fieldpath.Path
	create, edit bool
}

// resolve returns the places path[i:] leads to from n, which addr
// reaches from the root as child of parent.
func (r resolver) resolve(n *span.Node, i int, addr []int, parent *span.Node) ([]Place, error) {
	here := Place{N: n, Addr: addr, At: i, Parent: parent}
	if parent != nil && parent.Kind == span.Map && len(addr) > 0 {
		here.Key = parent.Keys[addr[len(addr)-1]]
	}
	if i == len(r.path) {
		return []Place{here}, nil
	}
	if n.Kind == span.Alias {
		target, err := r.throughAlias(n, i)
		if err != nil {
			return nil, err
		}
		n, here.N = target, target
	}
	r.d.Open(n)
	if n.Kind == span.Scalar {
		return r.intoScalar(here)
	}
	return r.selectIn(here)
}

// throughAlias returns the value the alias n stands for, which path[i:]
// goes on into, unless the path is being edited.
func (r resolver) throughAlias(n *span.Node, i int) (*span.Node, error) {
	alias, anchor := "*"+n.Source.Value, "&"+n.Source.Value
	if r.d.Secret {
		// an anchor's name is the text's too
		alias, anchor = "(its name not shown: the text is secret)", "(not shown)"
	}
	if r.edit {
		return nil, r.d.Errorf(i, "%s reaches the alias %s; edit the value at its anchor %s instead", r.path[:i], alias, anchor)
	}
	target := r.d.Anchored(n)
	if target == nil {
		return nil, r.d.Errorf(i, "cannot follow the alias %s", alias)
	}
	return target, nil
}

// selectIn resolves the segment path[here.At] in the map or list here.N:
// one child, several, or none, which is a place to add to or an error.
func (r resolver) selectIn(here Place) ([]Place, error) {
	n, i := here.N, here.At
	seg := r.path[i]
	sel, err := fieldpath.Select(docTree{r.d, i}, n, seg)
	switch {
	case err != nil:
		return nil, err
	case len(sel.Positions) == 1 && seg.Kind != fieldpath.Wildcard && seg.Kind != fieldpath.Match:
		j := sel.Positions[0]
		return r.resolve(n.Children[j], i+1, AppendAddr(here.Addr, j), n)
	case len(sel.Positions) > 0:
		return r.each(here, sel.Positions)
	case sel.Missing && r.create && r.edit:
		here.Kind = AddTo
		return []Place{here}, nil
	case seg.Kind == fieldpath.Wildcard && !sel.Mismatch:
		return r.each(here, nil)
	}
	return nil, r.selectError(n, i, sel)
}

// intoScalar resolves a segment at a scalar: a null becomes what the
// segment needs (create), a string holds a document the path goes into.
func (r resolver) intoScalar(here Place) ([]Place, error) {
	n, i := here.N, here.At
	seg := r.path[i]
	if n.Tag == span.NullTag && r.create && r.edit && seg.Kind != fieldpath.Wildcard {
		here.Kind = OverNull
		return []Place{here}, nil
	}
	if n.Tag == span.StrTag {
		here.Kind = InString
		return []Place{here}, nil
	}
	return nil, r.d.Errorf(i, "cannot look for %s in the %s, which holds %s", seg, r.d.Describe(n), showValue(n.Value, r.d.Secret))
}

// selectError says why path[i] leads nowhere in n.
func (r resolver) selectError(n *span.Node, i int, sel fieldpath.Selection) error {
	d, seg := r.d, r.path[i]
	switch {
	case n.Kind == span.Map && sel.Missing:
		return &Error{Segment: i, Msg: fmt.Sprintf("no key %q in the %s%s%s", seg.Key, d.Describe(n), d.Of(), d.KeyList(n)), Missing: true, Near: d.nearKey(n, seg.Key)}
	case n.Kind == span.Map:
		return d.Errorf(i, "%s selects list elements, but the %s is a map", seg, d.Describe(n))
	case n.Kind == span.Seq && seg.Kind == fieldpath.Index:
		err := d.Errorf(i, "index %d is out of range: the %s has %d elements", seg.Index, d.Describe(n), len(n.Children))
		err.(*Error).Missing = sel.Missing
		return err
	case n.Kind == span.Seq && sel.Missing:
		hint, _ := fieldpath.NoMatch[*span.Node](docTree{d, i}, n, seg, d.Secret)
		err := d.Errorf(i, "no element of the %s matches %s", d.Describe(n), seg).(*Error)
		err.Msg += hint
		err.Missing = true
		return err
	case n.Kind == span.Seq:
		return d.Errorf(i, "the %s is a list; %q needs a map (select elements with [name=value], an index or *)", d.Describe(n), seg.Key)
	}
	return d.Errorf(i, "cannot look for %s in the %s", seg, d.Describe(n))
}

// each resolves the rest of the path in several children of here.N
// (wildcards and list matchers). Children where the rest does not resolve
// are skipped, as kustomize does; nothing resolving at all is an error,
// and so is no child at all (a wildcard in an empty map or list).
func (r resolver) each(here Place, children []int) ([]Place, error) {
	n, i := here.N, here.At
	if len(children) == 0 {
		return nil, r.d.Errorf(i, "%s matches nothing: the %s is empty", r.path[i], r.d.Describe(n))
	}
	var out []Place
	var first error
	for _, j := range children {
		ps, err := r.resolve(n.Children[j], i+1, AppendAddr(here.Addr, j), n)
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		out = append(out, ps...)
	}
	if len(out) == 0 {
		return nil, first
	}
	return out, nil
}
