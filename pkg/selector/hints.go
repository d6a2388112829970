package selector

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"k8s.io/apimachinery/pkg/selection"
)

// nameHint explains a name pattern that matches nothing because names
// match whole (kustomize's rule, and ours): `^api-` and `api-` select only
// a resource named exactly "api-". It says so when the pattern carries
// anchors, and suggests the pattern probably meant ("api-.*") when that
// selects something in ix with the rest of the set unchanged. "" when
// neither applies.
func (sm *SetMatcher) nameHint(ix *Index, i int, name string) string {
	if name == "" || GlobHint(name) != "" {
		return "" // empty, or a glob, which has its own hint
	}
	core, start, end := stripAnchors(name)
	if strings.Contains(core, "|") {
		core = "(?:" + core + ")" // a|b.* would widen b alone
	}
	var rewrites []string
	switch {
	case start && end:
		return "" // anchored at both ends: the same as without
	case start:
		rewrites = []string{core + ".*"}
	case end:
		rewrites = []string{".*" + core}
	default:
		rewrites = []string{core + ".*", ".*" + core, ".*" + core + ".*"}
	}
	for _, re := range rewrites {
		if n := sm.countWithName(ix, i, re); n > 0 {
			return fmt.Sprintf(" (names match whole, as in kustomize%s: did you mean %q? it matches %d %s)",
				impliedAnchors(start || end), re, n, plural(n, "resource"))
		}
	}
	if start || end {
		return fmt.Sprintf(" (names match whole, as in kustomize%s)", impliedAnchors(true))
	}
	return ""
}

func impliedAnchors(anchored bool) string {
	if anchored {
		return ", so ^ and $ are implied"
	}
	return ""
}

// stripAnchors removes a leading ^ and an unescaped trailing $ from a
// regular expression, reporting which it removed.
func stripAnchors(expr string) (core string, start, end bool) {
	core = expr
	if strings.HasPrefix(core, "^") {
		core, start = core[1:], true
	}
	if strings.HasSuffix(core, "$") {
		backslashes := 0
		for j := len(core) - 2; j >= 0 && core[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			core, end = core[:len(core)-1], true
		}
	}
	return core, start, end
}

// countWithName counts what the set selects in ix when its i-th target
// selector has the name pattern name instead of its own; 0 when that
// pattern does not compile.
func (sm *SetMatcher) countWithName(ix *Index, i int, name string) int {
	return sm.countWith(ix, i, func(s *Selector) { s.Name = name })
}

// countWith counts what the set selects in ix with its i-th target
// selector changed by edit.
func (sm *SetMatcher) countWith(ix *Index, i int, edit func(*Selector)) int {
	sels := sm.src.All()
	edit(&sels[i])
	alt, err := CompileSet(Set{Targets: sels, Reject: sm.src.Reject})
	if err != nil {
		return 0
	}
	alt.readOnly = sm.readOnly
	return len(alt.Select(ix))
}

// labelHint explains a labelSelector that leaves nothing of what the rest
// of its selector selects: for each requirement naming label values (=,
// ==, in) that none of those resources satisfies, it names the values
// that label does have there and the nearest, or, when none of them
// carries the label, the nearest label they do carry. "" when the rest
// selects nothing either (the labels are not the problem).
func (sm *SetMatcher) labelHint(ix *Index, i int, sel Selector) string {
	if sel.LabelSelector == "" {
		return ""
	}
	m := sm.targets[i]
	reqs, ok := m.labels.Requirements()
	if !ok {
		return ""
	}
	// what the selector selects but for its labels
	sels := sm.src.All()
	sels[i].LabelSelector = ""
	rest, err := CompileSet(Set{Targets: sels[i : i+1], Reject: sm.src.Reject})
	if err != nil {
		return ""
	}
	rest.readOnly = sm.readOnly
	cands := rest.Select(ix)
	if len(cands) == 0 {
		return ""
	}
	among := fmt.Sprintf("the %d %s the rest of the target selects", len(cands), plural(len(cands), "resource"))
	var hints []string
	for _, r := range reqs {
		switch r.Operator() {
		case selection.Equals, selection.DoubleEquals, selection.In:
		default:
			continue
		}
		if h := requirementHint(ix, cands, r.Key(), r.Values().List(), among); h != "" {
			hints = append(hints, h)
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return " (" + strings.Join(hints, "; ") + ")"
}

// requirementHint explains why none of cands (among, in words) carries
// label key with one of wanted as its value: "" when one does.
func requirementHint(ix *Index, cands []int, key string, wanted []string, among string) string {
	var values, keys []string
	for _, c := range cands {
		labels := ix.resources[c].Labels
		if v, ok := labels[key]; ok {
			if slices.Contains(wanted, v) {
				return ""
			}
			if !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		for k := range labels {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	if len(values) == 0 {
		sort.Strings(keys)
		msg := fmt.Sprintf("none of %s has label %s", among, key)
		if near := suggest.Nearest(key, keys); near != "" {
			msg += fmt.Sprintf(": did you mean %s?", near)
		} else if len(keys) > 0 {
			msg += " (their labels: " + listSome(keys) + ")"
		}
		return msg
	}
	sort.Strings(values)
	msg := fmt.Sprintf("label %s has %s %s among %s", key, plural(len(values), "value"), listSome(values), among)
	var near []string
	for _, w := range wanted {
		if n := suggest.Nearest(w, values); n != "" && !slices.Contains(near, key+"="+n) {
			near = append(near, key+"="+n)
		}
	}
	if len(near) > 0 {
		msg += ": did you mean " + strings.Join(near, " or ") + "?"
	}
	return msg
}

// listSome joins up to eight strings, with "…" for the rest.
func listSome(s []string) string {
	const most = 8
	if len(s) > most {
		return strings.Join(s[:most], ", ") + ", …"
	}
	return strings.Join(s, ", ")
}
