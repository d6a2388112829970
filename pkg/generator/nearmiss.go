package generator

import (
	"fmt"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator/hash"
)

// notFound is the error of a merge or replace whose resource is not in the
// input. A misspelt name or the wrong namespace is the usual cause, and
// behavior create, the obvious way out, would then make a second resource
// beside the one meant: so the resources of the kind that are near (the
// same name in another namespace, a near name in the same one, then
// anywhere) come first, and create last.
func (r *run) notFound(e entry, behavior string) string {
	msg := fmt.Sprintf("behavior %s: %s does not exist in the input", behavior, e.describe())
	hints, items := r.nearMisses(e)
	if len(hints) == 0 {
		return msg + "; use behavior create to make it"
	}
	does, those := "does", "that one"
	if len(items) > 1 {
		does, those = "do", "those"
	}
	return fmt.Sprintf("%s; %s %s: did you mean %s? (behavior create would make a new %s %s, not change %s)",
		msg, strings.Join(items, " and "), does, strings.Join(hints, ", or "), e.kind, e.target(), those)
}

// nearMisses names what the generator probably meant, as the fields to
// change (namespace: apps) and the resources that exist (v1 ConfigMap
// apps/demo), at most four. Names only: never what a Secret holds.
func (r *run) nearMisses(e entry) (hints, items []string) {
	p := r.places(e)
	for _, f := range p.sameName {
		hints = append(hints, "namespace: "+f.ns)
		items = append(items, f.item)
	}
	h, it := nearest(e.args.Name, p.inNS, false)
	if len(h) == 0 && len(p.sameName) == 0 {
		h, it = nearest(e.args.Name, p.elsewhere, true)
	}
	hints, items = append(hints, h...), append(items, it...)
	const most = 4
	if len(hints) > most {
		hints, items = append(hints[:most], "…"), append(items[:most], "…")
	}
	return hints, items
}

// found is a resource near the one a generator names.
type found struct{ ns, name, item string }

// places holds the resources of a generator's kind by where they are: with
// its name in another namespace, in its namespace, elsewhere. Each group
// is sorted by namespace and name.
type places struct {
	kind, ns, name            string
	seen                      map[idKey]bool
	sameName, inNS, elsewhere []found
}

// places gathers the resources of the generator's kind, kustomize's hashed
// names by the name before the hash when the hash is the content's (as
// find requires).
func (r *run) places(e entry) *places {
	x := r.index()
	p := &places{kind: e.kind, ns: normNS(e.args.Namespace), name: e.args.Name, seen: map[idKey]bool{}}
	for k, is := range x.byName {
		p.add(k, r.describeFirst(is))
	}
	for k, is := range x.byBase {
		p.add(k, r.describeFirst(r.contentHashed(is)))
	}
	for _, fs := range [][]found{p.sameName, p.inNS, p.elsewhere} {
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].ns != fs[j].ns {
				return fs[i].ns < fs[j].ns
			}
			return fs[i].name < fs[j].name
		})
	}
	return p
}

// add puts the resource at k, described as item ("" when there is none), in
// its group; the first for a key counts.
func (p *places) add(k idKey, item string) {
	if k.kind != p.kind || item == "" || p.seen[k] {
		return
	}
	p.seen[k] = true
	g := p.group(k)
	*g = append(*g, found{k.ns, k.name, item})
}

// group is the group of the resource at k.
func (p *places) group(k idKey) *[]found {
	switch {
	case k.name == p.name && k.ns != p.ns:
		return &p.sameName
	case k.ns == p.ns:
		return &p.inNS
	}
	return &p.elsewhere
}

// describeFirst names the first of items, or is "" for none.
func (r *run) describeFirst(is []int) string {
	if len(is) == 0 {
		return ""
	}
	return fnrun.Describe(r.req.Items[is[0]])
}

// contentHashed keeps the items whose name ends in the hash of their content.
func (r *run) contentHashed(is []int) []int {
	var out []int
	for _, i := range is {
		if hash.Hashed(r.req.Items[i]) {
			out = append(out, i)
		}
	}
	return out
}

// nearest names the resources among fs whose name is the nearest to name,
// with their namespace when withNS; none when no name is near.
func nearest(name string, fs []found, withNS bool) (hints, items []string) {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	n := suggest.Nearest(name, names)
	for _, f := range fs {
		if n == "" || f.name != n {
			continue
		}
		h := "name: " + n
		if withNS {
			h += ", namespace: " + f.ns
		}
		hints = append(hints, h)
		items = append(items, f.item)
	}
	return hints, items
}
