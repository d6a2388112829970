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
	what := noun + " " + strings.Join(targetStrings(sm.src), " or ")
	if n := sm.matchedBeforeReject(ix); n > 0 {
		var rejects []string
		for _, r := range sm.src.Reject {
			rejects = append(rejects, r.String())
		}
		if len(sm.targets) == 0 {
			return fmt.Sprintf("reject %s removes every resource (%d)", strings.Join(rejects, " or "), n)
		}
		return fmt.Sprintf("%s matches %d %s, all removed by reject %s", what, n, plural(n, "resource"), strings.Join(rejects, " or "))
	}
	if len(sm.targets) == 0 {
		return sm.src.NoMatch()
	}
	msg := what + " matches no resource"
	for i, sel := range sm.src.All() {
		if hint := GlobHint(sel.Name); hint != "" {
			msg += fmt.Sprintf(" (name is a regular expression, not a shell glob: did you mean %q?)", hint)
		}
		msg += sm.nameHint(ix, i, sel.Name) + sm.labelHint(ix, i, sel)
	}
	return msg + sm.NearMisses(ix)
}

// NearMisses names, as " (did you mean …?)", what the set's targets
// probably meant when they select nothing in ix: a kind that exists spelt
// otherwise (deployment for Deployment), a resource whose name is a typo
// away (api-config for api-confg). "" when nothing is close.
func (sm *SetMatcher) NearMisses(ix *Index) string {
	var hints, seen []string
	for _, m := range sm.targets {
		hs, ex := m.nearMisses(ix)
		for _, h := range hs {
			if !slices.Contains(hints, h) {
				hints = append(hints, h)
			}
		}
		for _, e := range ex {
			if !slices.Contains(seen, e) {
				seen = append(seen, e)
			}
		}
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

func targetStrings(s Set) []string {
	var parts []string
	for _, sel := range s.All() {
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
		kinds := make([]string, 0, len(ix.byKind))
		for k, is := range ix.byKind {
			if len(ix.liveOf(is)) > 0 {
				kinds = append(kinds, k)
			}
		}
		sort.Strings(kinds)
		near := suggest.Nearest(lit, kinds)
		if near == "" {
			return nil, nil // the kind is not there at all; names cannot help
		}
		hints = append(hints, "kind: "+near)
		kind = &pattern{literal: near}
	}
	if m.name == nil || m.name.re != nil {
		return hints, nil
	}
	var names []string
	where := map[string]string{}
	for i := range ix.items {
		r := &ix.resources[i]
		if ix.removed[i] || !kind.match(r.Kind) || slices.Contains(names, r.Name) {
			continue
		}
		if m.namespace != nil && !m.namespace.match(r.Namespace) && !(r.Namespace == "" && m.namespace.match("default")) {
			continue
		}
		names = append(names, r.Name)
		where[r.Name] = r.String()
	}
	if near := suggest.Nearest(m.name.literal, names); near != "" {
		hints = append(hints, "name: "+near)
		resources = append(resources, where[near])
	}
	return hints, resources
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
