package replacement

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kustomize 5.8.2 reads the value of a target's [key=value] as a regular
// expression matching anywhere in the value; we match the whole value
// (package fieldpath). A config written for kustomize that relied on the
// difference would silently change meaning, so wherever kustomize's reading
// would select elements ours does not, the target's result says which.

// divergence is one matcher of a target path, at one list, where
// kustomize's reading selects more than ours.
type divergence struct {
	seg    int      // the matcher's index in the path
	list   string   // the list, for messages
	extras []string // the elements only kustomize selects, described
}

// recordUnanchored notes the elements of list n that only kustomize's
// reading of path[i] selects (positions, from fieldpath.Select).
func (s *setter) recordUnanchored(n *yaml.Node, i int, positions []int) {
	if len(positions) == 0 {
		return
	}
	d := divergence{seg: i, list: at(s.path, i)}
	for _, p := range positions {
		d.extras = append(d.extras, describeElement(yamltree.Tree{}.Element(n, p), s.path[i], p, s.secret))
	}
	s.unanchored = append(s.unanchored, d)
}

// embeddedUnanchored does what recordUnanchored does for the matchers of
// path[i:], which continues inside the document held in text: the lists
// each matcher applies to are read with embedded.Get, and asked the same
// question.
func (s *setter) embeddedUnanchored(text string, i int) {
	rest := s.path[i:]
	for k, seg := range rest {
		if seg.Kind != fieldpath.Match {
			continue
		}
		lists, err := embedded.Get(text, rest[:k], embedded.Options{Where: s.path[:i], Cache: s.cache, Secret: s.secret, Format: s.format})
		if err != nil {
			continue // it leads nowhere; the edit will say so
		}
		for _, list := range lists {
			if list.Kind != yaml.SequenceNode {
				continue
			}
			sel, _ := fieldpath.Select(yamltree.Tree{}, list, seg)
			s.recordUnanchored(list, i+k, sel.Unanchored)
		}
	}
}

// describeElement names a list element in messages by the value its
// matcher looks at, and its position; a secret resource's by its position
// alone.
func describeElement(el *yaml.Node, seg fieldpath.Segment, pos int, secret bool) string {
	if secret {
		return fmt.Sprintf("element %d", pos)
	}
	v := el.Value
	if seg.Key != "" {
		v, _ = yamltree.Tree{}.Field(el, seg.Key) // the value the matcher looked at
	}
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	if seg.Key == "" {
		return fmt.Sprintf("%s (element %d)", strconv.Quote(v), pos)
	}
	return fmt.Sprintf("%s: %s (element %d)", seg.Key, strconv.Quote(v), pos)
}

// unanchoredNote says, for the matcher path[d.seg], what kustomize would
// select besides and how to write that reading here.
func unanchoredNote(path fieldpath.Path, d divergence) string {
	seg := path[d.seg]
	return fmt.Sprintf("%s matches the whole value here; kustomize 5.8.2 matches it anywhere and would also select %s of %s: write %s to select those too",
		seg, strings.Join(d.extras, ", "), d.list, unanchoredEquivalent(seg))
}

// unanchoredEquivalent is the matcher that selects here what seg selects
// in kustomize: its expression matching anywhere. A value written as a
// shell glob, or anchored at one end, gets the pattern it meant instead
// (suggest.Meant: shop-* and ^shop- are shop-.*), never .*^shop-.*.
func unanchoredEquivalent(seg fieldpath.Segment) string {
	v := seg.Value
	if meant, _, ok := suggest.Meant(v); ok {
		return fieldpath.NewMatch(seg.Key, meant).String()
	}
	if strings.Contains(v, "|") {
		v = "(?:" + v + ")"
	}
	if !strings.HasPrefix(v, ".*") {
		v = ".*" + v
	}
	if !strings.HasSuffix(v, ".*") || strings.HasSuffix(v, `\.*`) {
		v += ".*"
	}
	return fieldpath.NewMatch(seg.Key, v).String()
}

// withUnanchoredHint adds to an error at a matcher that selected nothing
// what kustomize would have selected there, in place of the advice to
// create an element: a config ported from kustomize meant those. Where
// the matcher's own hint already says what it meant (a glob, an anchor),
// that is the way to write it.
func (s *setter) withUnanchoredHint(err error) error {
	w, ok := err.(*walkError)
	if !ok || w.seg >= len(s.path) || s.path[w.seg].Kind != fieldpath.Match {
		return err
	}
	for _, d := range s.unanchored {
		if d.seg == w.seg {
			seg := s.path[d.seg]
			if seg.MeantHint() != "" {
				w.msg = fmt.Sprintf("%s; kustomize 5.8.2, which matches it anywhere, would select %s", w.msg, strings.Join(d.extras, ", "))
				break
			}
			w.msg = fmt.Sprintf("%s; it matches the whole value here, and kustomize 5.8.2, which matches it anywhere, would select %s: write %s for that",
				w.msg, strings.Join(d.extras, ", "), unanchoredEquivalent(seg))
			break
		}
	}
	return err
}

// divergesAt reports whether kustomize's reading of the matcher path[i]
// selects elements ours does not.
func (s *setter) divergesAt(i int) bool {
	return slices.ContainsFunc(s.unanchored, func(d divergence) bool { return d.seg == i })
}

// unanchoredWarning is the warning for a path written without error:
// every matcher where kustomize selects more, once each.
func (s *setter) unanchoredWarning() string {
	var notes []string
	seen := map[string]bool{}
	for _, d := range s.unanchored {
		note := unanchoredNote(s.path, d)
		if !seen[note] {
			seen[note] = true
			notes = append(notes, note)
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, "; ")
}
