package fieldpath

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
)

// The hints every walker gives where a path leads nowhere: the words are
// the walkers' own (package replacement, multi-patch's strings), what the
// user most likely meant is said here once.

// DottedKeyHint explains a key missing from map n at path[i] when n has a
// key that is path[i] and the segments after it joined by dots:
// data.settings.json.db.host where the key is settings.json. Adding a
// `settings` field (options.create) is then the wrong advice, and "keys
// there: settings.json" leaves the user to guess why: the path needs the
// dot escaped. It returns the hint, " (the key "settings.json" contains
// dots: escape them, data.settings\.json.db.host)", or "".
func DottedKeyHint[N any](t Tree[N], n N, path Path, i int) string {
	key := path[i].Key
	for j := i + 1; j < len(path); j++ {
		if path[j].Kind != Field && path[j].Kind != Index {
			return ""
		}
		key += "." + path[j].Key
		if pos, err := t.Lookup(n, key); err != nil || pos < 0 {
			continue
		}
		fixed := append(append(Path{}, path[:i]...), Segment{Kind: Field, Key: key})
		fixed = append(fixed, path[j+1:]...)
		return fmt.Sprintf(" (the key %q contains dots: escape them, %s)", key, fixed)
	}
	return ""
}

// NoMatch explains why the matcher seg selects no element of list: the
// pattern its value most likely meant (a shell glob, an anchor values
// matching whole make needless), or else the value there nearest to a
// literal one, and the values the elements have, a few. hide leaves the
// values out (a Secret's). literal reports whether the value is one
// options.create could add an element for: not a pattern, and no
// pattern's near miss, which an element named after it would only hide.
func NoMatch[N any](t Tree[N], list N, seg Segment, hide bool) (hint string, literal bool) {
	if hint := seg.MeantHint(); hint != "" {
		return hint, false
	}
	literal = seg.Creatable()
	if hide {
		return "", literal
	}
	values := valuesAt(t, list, seg)
	var hints []string
	if near := suggest.Nearest(seg.Value, values); literal && near != "" {
		hints = append(hints, fmt.Sprintf("did you mean %s?", NewMatch(seg.Key, near)))
	}
	if len(values) > 0 && len(values) <= 12 {
		hints = append(hints, fmt.Sprintf("%s there: %s", valuesOf(seg.Key), strings.Join(values, ", ")))
	}
	if len(hints) == 0 {
		return "", literal
	}
	return " (" + strings.Join(hints, " ") + ")", literal
}

// Creatable reports whether a matcher's value is one an element may be
// created for (options.create): a literal, neither a pattern nor a
// pattern's near miss (MeantHint), which an element named after it would
// only hide.
func (s Segment) Creatable() bool {
	return s.Kind == Match && !s.IsPattern() && s.MeantHint() == ""
}

// MeantHint says what a matcher's value most likely meant when it is a
// shell glob ([name=shop-*]: [name=shop-.*]) or anchored at one end where
// values match whole anyway ([name=^shop-]); "" otherwise.
func (s Segment) MeantHint() string {
	meant, why, ok := suggest.Meant(s.Value)
	if s.Kind != Match || !ok {
		return ""
	}
	return fmt.Sprintf(" (%s: did you mean %s?)", why, NewMatch(s.Key, meant))
}

// valuesAt are the values seg's matcher compares in the elements of list.
func valuesAt[N any](t Tree[N], list N, seg Segment) []string {
	var values []string
	for j := 0; j < t.Len(list); j++ {
		if v, ok := matchedValue(t, t.Element(list, j), seg); ok {
			values = append(values, v)
		}
	}
	return values
}

// valuesOf names the values a matcher compares, in messages.
func valuesOf(key string) string {
	if key == "" {
		return "elements"
	}
	return "values of " + key
}
