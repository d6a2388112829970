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
	msg := fmt.Sprintf("behavior %s: %s does not exist in the input", behavior, describeID(e))
	hints, items := r.nearMisses(e)
	if len(hints) == 0 {
		return msg + "; use behavior create to make it"
	}
	does, those := "does", "that one"
	if len(items) > 1 {
		does, those = "do", "those"
	}
	target := e.args.Name
	if e.args.Namespace != "" {
		target = e.args.Namespace + "/" + target
	}
	return fmt.Sprintf("%s; %s %s: did you mean %s? (behavior create would make a new %s %s, not change %s)",
		msg, strings.Join(items, " and "), does, strings.Join(hints, ", or "), e.kind, target, those)
}

// nearMisses names what the generator probably meant, as the fields to
// change (namespace: apps) and the resources that exist (v1 ConfigMap
// apps/demo). Names only: never what a Secret holds.
func (r *run) nearMisses(e entry) (hints, items []string) {
	x := r.index()
	ns, name := normNS(e.args.Namespace), e.args.Name
	type found struct{ ns, name, item string }
	var sameName, inNS, elsewhere []found
	seen := map[idKey]bool{}
	add := func(k idKey, is []int) {
		if k.kind != e.kind || len(is) == 0 || seen[k] {
			return
		}
		seen[k] = true
		f := found{k.ns, k.name, fnrun.Describe(r.req.Items[is[0]])}
		switch {
		case k.name == name && k.ns != ns:
			sameName = append(sameName, f)
		case k.ns == ns:
			inNS = append(inNS, f)
		default:
			elsewhere = append(elsewhere, f)
		}
	}
	for k, is := range x.byName {
		add(k, is)
	}
	for k, is := range x.byBase {
		// kustomize's hashed names, by the name before the hash, when
		// the hash is the content's (as find requires)
		var hashed []int
		for _, i := range is {
			n := r.req.Items[i].GetName()
			if s, err := hash.Suffix(r.req.Items[i]); err == nil && s == n[len(n)-hash.Len:] {
				hashed = append(hashed, i)
			}
		}
		add(k, hashed)
	}
	byPlace := func(fs []found) {
		sort.Slice(fs, func(i, j int) bool {
			if fs[i].ns != fs[j].ns {
				return fs[i].ns < fs[j].ns
			}
			return fs[i].name < fs[j].name
		})
	}
	byPlace(sameName)
	byPlace(inNS)
	byPlace(elsewhere)
	for _, f := range sameName {
		hints = append(hints, "namespace: "+f.ns)
		items = append(items, f.item)
	}
	nearest := func(fs []found, withNS bool) bool {
		names := make([]string, len(fs))
		for i, f := range fs {
			names[i] = f.name
		}
		n := suggest.Nearest(name, names)
		if n == "" {
			return false
		}
		for _, f := range fs {
			if f.name != n {
				continue
			}
			h := "name: " + n
			if withNS {
				h += ", namespace: " + f.ns
			}
			hints = append(hints, h)
			items = append(items, f.item)
		}
		return true
	}
	if !nearest(inNS, false) && len(sameName) == 0 {
		nearest(elsewhere, true)
	}
	const most = 4
	if len(hints) > most {
		hints, items = append(hints[:most], "…"), append(items[:most], "…")
	}
	return hints, items
}
