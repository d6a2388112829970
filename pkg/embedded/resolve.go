package embedded

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// placeKind is what a change does at a place.
type placeKind uint8

const (
	// atNode is an existing node the path ends at, which is replaced.
	atNode placeKind = iota
	// inString is a string holding a document the path continues in.
	inString
	// addTo is a map or list that a key or an element is added to.
	addTo
	// overNull is a null replaced by the maps and lists the path needs.
	overNull
)

// place is one spot a path leads to.
type place struct {
	kind placeKind
	n    *span.Node
	addr []int // child positions from the root
	at   int   // next path segment: the one inside the string, or the missing one
	// The map entry or list element that holds n, if any.
	parent *span.Node
	key    *span.Node
}

// resolve returns the places path[i:] leads to from n, which addr
// reaches from the root as child of parent. With create and edit, a
// missing key or element is a place to add it; with edit, an alias on the
// way is an error (writing through it would change what its anchor holds),
// and without, it is followed.
func (d *doc) resolve(n *span.Node, path fieldpath.Path, i int, addr []int, parent *span.Node, create, edit bool) ([]place, error) {
	here := place{n: n, addr: addr, at: i, parent: parent}
	if parent != nil && parent.Kind == span.Map && len(addr) > 0 {
		here.key = parent.Keys[addr[len(addr)-1]]
	}
	if i == len(path) {
		return []place{here}, nil
	}
	if n.Kind == span.Alias {
		target, err := d.throughAlias(n, path, i, edit)
		if err != nil {
			return nil, err
		}
		n, here.n = target, target
	}
	d.Open(n)
	if n.Kind == span.Scalar {
		return d.intoScalar(here, path, i, create, edit)
	}
	return d.selectIn(here, path, create, edit)
}

// throughAlias returns the value the alias n stands for, which path[i:]
// goes on into, unless the path is being edited.
func (d *doc) throughAlias(n *span.Node, path fieldpath.Path, i int, edit bool) (*span.Node, error) {
	if edit {
		return nil, d.errorf(i, "%s reaches the alias *%s; edit the value at its anchor &%s instead", path[:i], n.Source.Value, n.Source.Value)
	}
	target := d.Anchored(n)
	if target == nil {
		return nil, d.errorf(i, "cannot follow the alias *%s", n.Source.Value)
	}
	return target, nil
}

// selectIn resolves the segment path[here.at] in the map or list here.n:
// one child, several, or none, which is a place to add to or an error.
func (d *doc) selectIn(here place, path fieldpath.Path, create, edit bool) ([]place, error) {
	n, i, addr := here.n, here.at, here.addr
	seg := path[i]
	sel, err := fieldpath.Select(docTree{d, i}, n, seg)
	switch {
	case err != nil:
		return nil, err
	case len(sel.Positions) == 1 && seg.Kind != fieldpath.Wildcard && seg.Kind != fieldpath.Match:
		j := sel.Positions[0]
		return d.resolve(n.Children[j], path, i+1, appendAddr(addr, j), n, create, edit)
	case len(sel.Positions) > 0:
		return d.each(n, path, i, addr, create, edit, sel.Positions)
	case sel.Missing && create && edit:
		here.kind = addTo
		return []place{here}, nil
	case seg.Kind == fieldpath.Wildcard && !sel.Mismatch:
		return d.each(n, path, i, addr, create, edit, nil)
	}
	return nil, d.selectError(n, path, i, sel)
}

// intoScalar resolves a segment at a scalar: a null becomes what the
// segment needs (create), a string holds a document the path goes into.
func (d *doc) intoScalar(here place, path fieldpath.Path, i int, create, edit bool) ([]place, error) {
	n, seg := here.n, path[i]
	if n.Tag == span.NullTag && create && edit && seg.Kind != fieldpath.Wildcard {
		here.kind = overNull
		return []place{here}, nil
	}
	if n.Tag == span.StrTag {
		here.kind = inString
		return []place{here}, nil
	}
	return nil, d.errorf(i, "cannot look for %s in the %s, which holds %s", seg, d.describe(n), showValue(n.Value, d.secret))
}

// selectError says why path[i] leads nowhere in n.
func (d *doc) selectError(n *span.Node, path fieldpath.Path, i int, sel fieldpath.Selection) error {
	seg := path[i]
	switch {
	case n.Kind == span.Map && sel.Missing:
		return &Error{Segment: i, Msg: fmt.Sprintf("no key %q in the %s%s%s", seg.Key, d.describe(n), d.of(), keyList(n)), Missing: true, Near: d.nearKey(n, seg.Key)}
	case n.Kind == span.Map:
		return d.errorf(i, "%s selects list elements, but the %s is a map", seg, d.describe(n))
	case n.Kind == span.Seq && seg.Kind == fieldpath.Index:
		err := d.errorf(i, "index %d is out of range: the %s has %d elements", seg.Index, d.describe(n), len(n.Children))
		err.(*Error).Missing = sel.Missing
		return err
	case n.Kind == span.Seq && sel.Missing:
		err := d.errorf(i, "no element of the %s matches %s", d.describe(n), seg)
		err.(*Error).Missing = true
		return err
	case n.Kind == span.Seq:
		return d.errorf(i, "the %s is a list; %q needs a map (select elements with [name=value], an index or *)", d.describe(n), seg.Key)
	}
	return d.errorf(i, "cannot look for %s in the %s", seg, d.describe(n))
}

// each resolves the rest of the path in several children (wildcards and
// list matchers). Children where the rest does not resolve are skipped, as
// kustomize does; nothing resolving at all is an error.
func (d *doc) each(n *span.Node, path fieldpath.Path, i int, addr []int, create, edit bool, children []int) ([]place, error) {
	if len(children) == 0 {
		return nil, d.errorf(i, "%s matches nothing: the %s is empty", path[i], d.describe(n))
	}
	var out []place
	var first error
	for _, j := range children {
		ps, err := d.resolve(n.Children[j], path, i+1, appendAddr(addr, j), n, create, edit)
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

// findKey returns the index of key in map n, -1 when it has none; segment
// seg of the path names it, for messages.
func (d *doc) findKey(n *span.Node, key string, seg int) (int, error) {
	j, err := d.findKeySpelled(n, key, seg)
	if err != nil || j < 0 || n.YAMLInfo == nil || n.Source == nil {
		return j, err
	}
	// A key spelled differently that readers resolve alike (true and
	// True, 80 and 0x50) is the same key: readers keep the last, an edit
	// would change the first (package scalar).
	k := n.Keys[j]
	if k.YAMLInfo == nil || k.Source == nil {
		return j, nil
	}
	other := ""
	c := n.Source.Content
	scalar.ResolvedDuplicates(c, func(a, b int) {
		switch k.Source {
		case c[a]:
			other = c[b].Value
		case c[b]:
			other = c[a].Value
		}
	})
	if other != "" {
		return 0, d.errorf(seg, "key %q appears twice in the %s, spelled %q too (YAML readers take both for one key)", key, d.describe(n), other)
	}
	return j, nil
}

// newKeyClash refuses to create key in the YAML map n when a key there,
// spelled otherwise, is one readers take for the same key ("00" for "0",
// True for "true"): the map would then hold the key twice for them (fuzz
// finding 9d5cd920646d32d3). The new key is a string for every reader,
// quoted if need be, so it is checked as a quoted one.
func (d *doc) newKeyClash(n *span.Node, key string, seg int) error {
	if n.YAMLInfo == nil || n.Source == nil {
		return nil
	}
	forms := d.keyFormsOf(n)
	if len(forms) == 0 {
		return nil
	}
	c := n.Source.Content
	for _, f := range scalar.KeyForms(&yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: key, Style: yaml.DoubleQuotedStyle}) {
		if i, ok := forms[f]; ok && c[i].Value != key {
			msg := fmt.Sprintf("cannot create the key %q in the %s%s: YAML readers take the key %q there for the same key (to change its value, name that key as it is spelled)", key, d.describe(n), d.of(), c[i].Value)
			return &Error{Segment: seg, Msg: msg}
		}
	}
	return nil
}

// keyFormsOf indexes the forms (scalar.KeyForms) of the keys of the YAML
// map n that some reader takes for other than the string they spell: only
// those can be taken for a new key spelled otherwise. It is worked out once
// per map, as a batch may create many keys in one.
func (d *doc) keyFormsOf(n *span.Node) map[string]int {
	if forms, ok := d.keyForms[n]; ok {
		return forms
	}
	forms := map[string]int{}
	c := n.Source.Content
	for i := 0; i+1 < len(c); i += 2 {
		if scalar.StringForAll(c[i]) {
			continue
		}
		for _, f := range scalar.KeyForms(c[i]) {
			if _, seen := forms[f]; !seen {
				forms[f] = i
			}
		}
	}
	if d.keyForms == nil {
		d.keyForms = map[*span.Node]map[string]int{}
	}
	d.keyForms[n] = forms
	return forms
}

// findKeySpelled is findKey for the key spelled as given: the index of
// the key, -1 when there is none, and an error when it appears twice.
func (d *doc) findKeySpelled(n *span.Node, key string, seg int) (int, error) {
	j, twice := d.Key(n, key)
	if twice {
		return 0, d.errorf(seg, "key %q appears twice in the %s", key, d.describe(n))
	}
	return j, nil
}

// nearKey is the key of map n nearest to key, for Error.Near: "" when none
// is near or the text is secret.
func (d *doc) nearKey(n *span.Node, key string) string {
	if d.secret {
		return ""
	}
	keys := make([]string, 0, len(n.Keys))
	for _, k := range n.Keys {
		if k.Kind == span.Scalar {
			keys = append(keys, k.Value)
		}
	}
	return suggest.Nearest(key, keys)
}

// joinPath returns a followed by b, in a new slice.
func joinPath(a, b fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// appendAddr returns the address of child i of the node at addr, in a new
// slice.
func appendAddr(addr []int, i int) []int {
	out := make([]int, len(addr)+1)
	copy(out, addr)
	out[len(addr)] = i
	return out
}

// addrKey spells an address as a map key: "/0/3".
func addrKey(addr []int) string {
	var b strings.Builder
	for _, a := range addr {
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(a))
	}
	return b.String()
}
