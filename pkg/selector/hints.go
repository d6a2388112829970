package selector

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// nameHint explains a name pattern that matches nothing because names
// match whole (kustomize's rule, and ours): `^api-` and `api-` select only
// a resource named exactly "api-". It says so when the pattern carries
// anchors, and suggests the pattern probably meant ("api-.*") when that
// selects something in ix with the rest of the set unchanged. "" when
// neither applies.
func (sm *SetMatcher) nameHint(ix *Index, i int, name string) string {
	if name == "" || suggest.Glob(name) != "" {
		return "" // empty, or a glob, which has its own hint
	}
	core, start, end := suggest.StripAnchors(name)
	if start && end {
		return "" // anchored at both ends: the same as without
	}
	for _, re := range suggest.Widened(core, start, end) {
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

// countWithName counts what the set selects in ix when its i-th target
// selector has the name pattern name instead of its own; 0 when that
// pattern does not compile.
func (sm *SetMatcher) countWithName(ix *Index, i int, name string) int {
	sels := sm.src.All()
	sels[i].Name = name
	return len(sm.selectWith(ix, sels))
}

// selectWith is what the set selects in ix with the targets sels in place
// of its own (reject and read-only kept); nothing when they do not compile.
func (sm *SetMatcher) selectWith(ix *Index, sels []Selector) []int {
	alt, err := CompileSet(Set{Targets: sels, Reject: sm.src.Reject})
	if err != nil {
		return nil
	}
	alt.readOnly = sm.readOnly
	return alt.Select(ix)
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
	reqs, ok := sm.targets[i].labels.Requirements()
	if !ok {
		return ""
	}
	// what the selector selects but for its labels
	sels := sm.src.All()
	sels[i].LabelSelector = ""
	cands := sm.selectWith(ix, sels[i:i+1])
	if len(cands) == 0 {
		return ""
	}
	among := fmt.Sprintf("the %d %s the rest of the target selects", len(cands), plural(len(cands), "resource"))
	var hints []string
	for _, r := range reqs {
		if h := requirementHint(ix, cands, r, among); h != "" {
			hints = append(hints, h)
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return " (" + strings.Join(hints, "; ") + ")"
}

// requirementHint explains why none of cands (among, in words) satisfies
// a requirement naming label values: "" when one does, or when the
// requirement names no values (!=, notin, exists).
func requirementHint(ix *Index, cands []int, r labels.Requirement, among string) string {
	switch r.Operator() {
	case selection.Equals, selection.DoubleEquals, selection.In:
	default:
		return ""
	}
	key, wanted := r.Key(), r.Values().List()
	values, keys, found := labelsAmong(ix, cands, key, wanted)
	switch {
	case found:
		return ""
	case len(values) == 0:
		return missingLabel(key, keys, among)
	}
	return otherValues(key, values, wanted, among)
}

// labelsAmong collects, over cands, the values of label key and the keys of
// all their labels; found reports that one has a wanted value.
func labelsAmong(ix *Index, cands []int, key string, wanted []string) (values, keys []string, found bool) {
	for _, c := range cands {
		labels := ix.resources[c].Labels
		if v, ok := labels[key]; ok {
			if slices.Contains(wanted, v) {
				return nil, nil, true
			}
			values = addOnce(values, v)
		}
		for k := range labels {
			keys = addOnce(keys, k)
		}
	}
	return values, keys, false
}

// missingLabel says that none of the candidates has label key, and which
// of their labels (keys) was probably meant.
func missingLabel(key string, keys []string, among string) string {
	sort.Strings(keys)
	msg := fmt.Sprintf("none of %s has label %s", among, key)
	if near := suggest.Nearest(key, keys); near != "" {
		return msg + fmt.Sprintf(": did you mean %s?", near)
	}
	if len(keys) > 0 {
		return msg + " (their labels: " + listSome(keys) + ")"
	}
	return msg
}

// otherValues names the values label key has among the candidates, and
// those nearest to the wanted ones.
func otherValues(key string, values, wanted []string, among string) string {
	sort.Strings(values)
	msg := fmt.Sprintf("label %s has %s %s among %s", key, plural(len(values), "value"), listSome(values), among)
	var near []string
	for _, w := range wanted {
		if n := suggest.Nearest(w, values); n != "" {
			near = addOnce(near, key+"="+n)
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
