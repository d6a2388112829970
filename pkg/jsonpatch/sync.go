package jsonpatch

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// syncJSON makes doc equal to the JSON document out while touching only the
// nodes whose values differ: unchanged fields keep their comments, order and
// quoting; new map keys are appended; a changed scalar keeps its comments.
// hint, when given, is the patch as the user wrote it: what the patch adds
// takes its key order (the library's output order is not stable).
func syncJSON(doc *yaml.RNode, out []byte, hint *yaml.Node) error {
	want, err := yaml.Parse(string(out))
	if err != nil {
		return fmt.Errorf("reading patched document: %w", err)
	}
	plain(want.YNode())
	syncNode(doc.YNode(), want.YNode(), unwrap(hint))
	return nil
}

func unwrap(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return n.Content[0]
	}
	return n
}

// hintField returns the value of a key in a hint map, or nil. An alias is
// not followed.
func hintField(hint *yaml.Node, key string) *yaml.Node {
	if hint == nil || hint.Kind != yaml.MappingNode {
		return nil
	}
	return yamltree.Lookup(hint, key)
}

// orderLike puts the keys of a new subtree in the order the hint has them.
func orderLike(n, hint *yaml.Node) {
	switch {
	case hint == nil:
	case n.Kind == yaml.MappingNode && hint.Kind == yaml.MappingNode:
		orderMap(n, hint)
	case n.Kind == yaml.SequenceNode && hint.Kind == yaml.SequenceNode && len(n.Content) == len(hint.Content):
		for i := range n.Content {
			orderLike(n.Content[i], unwrap(hint.Content[i]))
		}
	}
}

// orderMap puts a map's keys in the hint's order, those it lacks after
// them as they were, and orders each value likewise.
func orderMap(n, hint *yaml.Node) {
	rank := map[string]int{}
	for i := 0; i+1 < len(hint.Content); i += 2 {
		rank[hint.Content[i].Value] = i/2 + 1
	}
	pairs := make([][2]*yaml.Node, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, [2]*yaml.Node{n.Content[i], n.Content[i+1]})
	}
	sort.SliceStable(pairs, func(a, b int) bool {
		ra, rb := rank[pairs[a][0].Value], rank[pairs[b][0].Value]
		return ra != 0 && (rb == 0 || ra < rb)
	})
	n.Content = n.Content[:0]
	for _, p := range pairs {
		orderLike(p[1], hintField(hint, p[0].Value))
		n.Content = append(n.Content, p[0], p[1])
	}
}

// plain drops the JSON quoting the parser records, so new strings are
// written the way YAML writes them (quoted only when they must be).
func plain(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Style == yaml.DoubleQuotedStyle {
		n.Style = 0
		scalar.QuoteIfNeeded(n)
	}
	if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		plain(c)
	}
}

// syncNode makes dst equal to want: containers synced key by key or
// element by element, a scalar changed in place, anything else replaced.
func syncNode(dst, want, hint *yaml.Node) {
	dst, want = unwrap(dst), unwrap(want)
	switch {
	case dst.Kind == yaml.AliasNode && equalNode(dst, want):
		// an alias whose value did not change stays an alias
	case dst.Kind == yaml.AliasNode || dst.Kind != want.Kind:
		replaceKeepComments(dst, want, hint)
	case dst.Kind == yaml.MappingNode:
		syncMap(dst, want, hint)
	case dst.Kind == yaml.SequenceNode:
		syncSeq(dst, want, hint)
	case dst.Kind == yaml.ScalarNode:
		syncScalar(dst, want)
	default:
		replaceKeepComments(dst, want, hint)
	}
}

// syncScalar gives dst want's value, unless it is the same value spelt
// otherwise.
func syncScalar(dst, want *yaml.Node) {
	if sameScalar(dst, want) {
		return
	}
	style := dst.Style
	dst.Value, dst.Tag = want.Value, want.Tag
	// Keep a quote style the new value can still use; a number
	// replacing a quoted string must lose its quotes.
	if want.Tag != "!!str" || style == yaml.LiteralStyle || style == yaml.FoldedStyle {
		style = 0
	}
	dst.Style = style
	scalar.QuoteIfNeeded(dst)
}

// replaceKeepComments makes dst a copy of want, keys in the hint's order,
// with dst's comments.
func replaceKeepComments(dst, want, hint *yaml.Node) {
	head, line, foot := dst.HeadComment, dst.LineComment, dst.FootComment
	*dst = *want
	dst.HeadComment, dst.LineComment, dst.FootComment = head, line, foot
	orderLike(dst, hint)
}

// syncMap keeps the keys of dst that want has, in their places, each value
// synced; the others are gone.
func syncMap(dst, want, hint *yaml.Node) {
	wantVals := make(map[string]*yaml.Node, len(want.Content)/2)
	for i := 0; i+1 < len(want.Content); i += 2 {
		wantVals[want.Content[i].Value] = want.Content[i+1]
	}
	kept := dst.Content[:0]
	seen := make(map[string]bool, len(dst.Content)/2)
	for i := 0; i+1 < len(dst.Content); i += 2 {
		k, v := dst.Content[i], dst.Content[i+1]
		w, ok := wantVals[k.Value]
		if !ok {
			continue // removed by the patch
		}
		seen[k.Value] = true
		syncNode(v, w, hintField(hint, k.Value))
		kept = append(kept, k, v)
	}
	dst.Content = kept
	appendNew(dst, want, seen, hint)
}

// appendNew appends the keys of want that dst lacks (seen holds those it
// has): those the hint names in its order, then the rest.
func appendNew(dst, want *yaml.Node, seen map[string]bool, hint *yaml.Node) {
	var added []*yaml.Node
	for i := 0; i+1 < len(want.Content); i += 2 {
		if !seen[want.Content[i].Value] {
			added = append(added, want.Content[i], want.Content[i+1])
		}
	}
	if len(added) == 0 {
		return
	}
	block := &yaml.Node{Kind: yaml.MappingNode, Content: added}
	orderLike(block, hint)
	dst.Content = append(dst.Content, block.Content...)
}

// syncSeq keeps the original element nodes that are still there, in the new
// order: elements equal to a new one are matched first, in order; then
// elements with the same name (a changed container keeps its comments, and
// no other container takes them); what is left is synced position by
// position when neither side has a name, or taken from the new list.
func syncSeq(dst, want, hint *yaml.Node) {
	s := seqSync{old: dst.Content, want: want.Content, hint: hint,
		used: make([]bool, len(dst.Content)), out: make([]*yaml.Node, len(want.Content))}
	s.matchEqual()
	for i := range s.want {
		if s.out[i] == nil {
			s.place(i)
		}
	}
	dst.Content = s.out
}

// seqSync is one syncSeq: out[i] becomes the node for want[i], an old one
// (used) or the new one.
type seqSync struct {
	old, want, out []*yaml.Node
	used           []bool
	hint           *yaml.Node
}

// matchEqual keeps, for each new element in order, the first unused old
// element equal to it after the last one kept.
func (s *seqSync) matchEqual() {
	next := 0
	for i, w := range s.want {
		for j := next; j < len(s.old); j++ {
			if !s.used[j] && equalNode(s.old[j], w) {
				s.used[j], s.out[i], next = true, s.old[j], j+1
				break
			}
		}
	}
}

// place fills out[i] with its partner, synced to want[i], or with want[i].
func (s *seqSync) place(i int) {
	w := s.want[i]
	if j := s.partner(i); j >= 0 {
		s.used[j], s.out[i] = true, s.old[j]
		syncNode(s.old[j], w, s.hintAt(i))
		return
	}
	orderLike(w, s.hintAt(i))
	s.out[i] = w
}

// partner is the unused old element that becomes want[i]: the first with
// its name or, when it has none, the one at its position if of its kind
// and without a name either; -1 when there is none.
func (s *seqSync) partner(i int) int {
	w := s.want[i]
	if name := elementName(w); name != "" {
		for j := range s.old {
			if !s.used[j] && elementName(s.old[j]) == name {
				return j
			}
		}
		return -1
	}
	if i < len(s.old) && !s.used[i] && s.old[i].Kind == w.Kind && elementName(s.old[i]) == "" {
		return i
	}
	return -1
}

// hintAt is the hint for want[i]: the element at its place when the hint
// is a list as long; otherwise (a merge that kept elements the patch does
// not name) the first the hint has that is equal to it or, failing that,
// that has its name.
func (s *seqSync) hintAt(i int) *yaml.Node {
	if s.hint == nil || s.hint.Kind != yaml.SequenceNode {
		return nil
	}
	if len(s.hint.Content) == len(s.want) {
		return unwrap(s.hint.Content[i])
	}
	for _, h := range s.hint.Content {
		if equalNode(unwrap(h), s.want[i]) {
			return unwrap(h)
		}
	}
	if name := elementName(s.want[i]); name != "" {
		for _, h := range s.hint.Content {
			if elementName(unwrap(h)) == name {
				return unwrap(h)
			}
		}
	}
	return nil
}

// elementName is the name of a list element that is a map with a scalar
// name field (containers, env, volumes, ports...), or "".
func elementName(n *yaml.Node) string {
	if n.Kind != yaml.MappingNode {
		return ""
	}
	if v := yamltree.Lookup(n, "name"); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// sameScalar compares values, not spellings: 0o17 and 15, True and true,
// ~ and null, a timestamp and its string are the same JSON value, and the
// original spelling is kept.
func sameScalar(a, b *yaml.Node) bool {
	if a.Value == b.Value && a.ShortTag() == b.ShortTag() {
		return true
	}
	ja, errA := yamljson.Encode(a, nil)
	jb, errB := yamljson.Encode(b, nil)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// equalNode compares an original node (an alias stands for its value)
// with a new one as JSON values: map key order and scalar spellings do not
// matter.
func equalNode(a, b *yaml.Node) bool {
	a = yamltree.Resolve(a)
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return sameScalar(a, b)
	case yaml.MappingNode:
		return equalMap(a, b)
	case yaml.SequenceNode:
		return equalSeq(a, b)
	}
	return false
}

func equalMap(a, b *yaml.Node) bool {
	if len(a.Content) != len(b.Content) {
		return false
	}
	bv := make(map[string]*yaml.Node, len(b.Content)/2)
	for i := 0; i+1 < len(b.Content); i += 2 {
		bv[b.Content[i].Value] = b.Content[i+1]
	}
	for i := 0; i+1 < len(a.Content); i += 2 {
		w, ok := bv[a.Content[i].Value]
		if !ok || !equalNode(a.Content[i+1], w) {
			return false
		}
	}
	return true
}

func equalSeq(a, b *yaml.Node) bool {
	if len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !equalNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}
