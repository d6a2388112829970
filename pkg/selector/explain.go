package selector

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
)

// Explain says, for a warning, why the set selected nothing in ix, naming
// the targets as noun ("target", or "select" for replacements) with
// Set.NoMatch's glob hint. When reject removed every resource the targets
// match, it says how many that was; otherwise it adds the hints of
// hints.go (a name anchored or missing its .*, a label value that is not
// there) and NearMisses.
func (sm *SetMatcher) Explain(ix *Index, noun string) string {
	if len(sm.targets) == 0 && len(sm.reject) == 0 {
		return sm.src.NoMatch()
	}
	what := noun + " " + strings.Join(selectorStrings(sm.src.All()), " or ")
	if n := sm.matchedBeforeReject(ix); n > 0 {
		return sm.allRejected(what, n)
	}
	if len(sm.targets) == 0 {
		return sm.src.NoMatch()
	}
	msg := what + " matches no resource"
	for i, sel := range sm.src.All() {
		msg += globNote(sel.Name) + sm.nameHint(ix, i, sel.Name) + sm.labelHint(ix, i, sel)
	}
	return msg + sm.NearMisses(ix)
}

// allRejected says that reject removed every resource (n) the targets,
// what, match.
func (sm *SetMatcher) allRejected(what string, n int) string {
	rejects := strings.Join(selectorStrings(sm.src.Reject), " or ")
	if len(sm.targets) == 0 {
		return fmt.Sprintf("reject %s removes every resource (%d)", rejects, n)
	}
	return fmt.Sprintf("%s matches %d %s, all removed by reject %s", what, n, plural(n, "resource"), rejects)
}

// NearMisses names, as " (did you mean …?)", what the set's targets
// probably meant when they select nothing in ix: a kind that exists spelt
// otherwise (deployment for Deployment), a resource whose name is a typo
// away (api-config for api-confg). "" when nothing is close.
func (sm *SetMatcher) NearMisses(ix *Index) string {
	var hints, seen []string
	for _, m := range sm.targets {
		hs, ex := m.nearMisses(ix)
		hints = addOnce(hints, hs...)
		seen = addOnce(seen, ex...)
	}
	if len(hints) == 0 {
		return ""
	}
	msg := " (did you mean " + strings.Join(hints, ", or ") + "?"
	if len(seen) > 0 {
		msg += " " + strings.Join(seen, ", ") + " exists"
	}
	return msg + ")"
}

// addOnce appends to list each of vs it does not hold yet.
func addOnce(list []string, vs ...string) []string {
	for _, v := range vs {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

// selectorStrings are the selectors as messages write them.
func selectorStrings(sels []Selector) []string {
	var parts []string
	for _, sel := range sels {
		parts = append(parts, sel.String())
	}
	return parts
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// matchedBeforeReject counts the resources the targets select when reject
// is left out.
func (sm *SetMatcher) matchedBeforeReject(ix *Index) int {
	if len(sm.reject) == 0 {
		return 0
	}
	without := *sm
	without.reject = nil
	return len(without.Select(ix))
}

// nearMisses names what a literal kind or name in the selector probably
// meant, from what the index holds ("kind: Deployment", "name: api-config"),
// and the resources the name hints are about. Patterns other than literals are left
// alone: a regular expression that matches nothing is not a typo to guess.
func (m *Matcher) nearMisses(ix *Index) (hints, resources []string) {
	kind := m.kind
	if lit, ok := m.literalKind(); ok && len(ix.live(lit)) == 0 {
		near := ix.nearestKind(lit)
		if near == "" {
			return nil, nil // the kind is not there at all; names cannot help
		}
		hints = append(hints, "kind: "+near)
		kind = &pattern{literal: near}
	}
	if _, ok := m.name.literalValue(); !ok {
		return hints, nil
	}
	if near, r := m.nearestName(ix, kind); near != "" {
		hints = append(hints, "name: "+near)
		resources = append(resources, r)
	}
	return hints, resources
}

// nearestKind is the kind of live items in ix nearest to kind, or "".
func (ix *Index) nearestKind(kind string) string {
	kinds := make([]string, 0, len(ix.byKind))
	for k, is := range ix.byKind {
		if len(ix.liveOf(is)) > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return suggest.Nearest(kind, kinds)
}

// nearestName is the name nearest to the selector's literal name among the
// live items of kind in its namespace, and the first resource so named.
func (m *Matcher) nearestName(ix *Index, kind *pattern) (string, string) {
	var names []string
	where := map[string]string{}
	for i := range ix.items {
		r := &ix.resources[i]
		if _, dup := where[r.Name]; dup || ix.removed[i] || !kind.match(r.Kind) || !m.inNamespace(r.Namespace) {
			continue
		}
		names = append(names, r.Name)
		where[r.Name] = r.String()
	}
	near := suggest.Nearest(m.name.literal, names)
	return near, where[near]
}

// live returns the positions of the items of a kind that are still there.
func (ix *Index) live(kind string) []int { return ix.liveOf(ix.byKind[kind]) }

func (ix *Index) liveOf(is []int) []int {
	var out []int
	for _, i := range is {
		if !ix.removed[i] {
			out = append(out, i)
		}
	}
	return out
}

// String names a resource as messages do: "apps/v1 Deployment prod/api".
func (r Resource) String() string {
	name := r.Name
	if r.Namespace != "" {
		name = r.Namespace + "/" + name
	}
	return r.APIVersion() + " " + r.Kind + " " + name
}
