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
	if hint == nil {
		return
	}
	switch {
	case n.Kind == yaml.MappingNode && hint.Kind == yaml.MappingNode:
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
	case n.Kind == yaml.SequenceNode && hint.Kind == yaml.SequenceNode && len(n.Content) == len(hint.Content):
		for i := range n.Content {
			orderLike(n.Content[i], unwrap(hint.Content[i]))
		}
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

func syncNode(dst, want, hint *yaml.Node) {
	if dst.Kind == yaml.DocumentNode {
		dst = dst.Content[0]
	}
	if want.Kind == yaml.DocumentNode {
		want = want.Content[0]
	}
	if dst.Kind == yaml.AliasNode {
		// an alias whose value did not change stays an alias
		if !equalNode(dst, want) {
			replaceKeepComments(dst, want)
			orderLike(dst, hint)
		}
		return
	}
	switch {
	case dst.Kind == yaml.MappingNode && want.Kind == yaml.MappingNode:
		syncMap(dst, want, hint)
	case dst.Kind == yaml.SequenceNode && want.Kind == yaml.SequenceNode:
		syncSeq(dst, want, hint)
	case dst.Kind == yaml.ScalarNode && want.Kind == yaml.ScalarNode:
		if !sameScalar(dst, want) {
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
	default:
		replaceKeepComments(dst, want)
		orderLike(dst, hint)
	}
}

func replaceKeepComments(dst, want *yaml.Node) {
	head, line, foot := dst.HeadComment, dst.LineComment, dst.FootComment
	*dst = *want
	dst.HeadComment, dst.LineComment, dst.FootComment = head, line, foot
}

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
	// New keys are appended: those the hint names in its order, then the rest.
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
	old := dst.Content
	used := make([]bool, len(old))
	out := make([]*yaml.Node, len(want.Content))
	next := 0
	for i, w := range want.Content {
		for j := next; j < len(old); j++ {
			if !used[j] && equalNode(old[j], w) {
				used[j], out[i], next = true, old[j], j+1
				break
			}
		}
	}
	hintAt := func(i int) *yaml.Node {
		if hint != nil && hint.Kind == yaml.SequenceNode && len(hint.Content) == len(want.Content) {
			return unwrap(hint.Content[i])
		}
		return nil
	}
	for i, w := range want.Content {
		if out[i] != nil {
			continue
		}
		if name := elementName(w); name != "" {
			for j := range old {
				if !used[j] && elementName(old[j]) == name {
					used[j], out[i] = true, old[j]
					syncNode(old[j], w, hintAt(i))
					break
				}
			}
		} else if i < len(old) && !used[i] && old[i].Kind == w.Kind && elementName(old[i]) == "" {
			used[i], out[i] = true, old[i]
			syncNode(old[i], w, hintAt(i))
		}
		if out[i] == nil {
			orderLike(w, hintAt(i))
			out[i] = w
		}
	}
	dst.Content = out
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
	ja, errA := yamljson.Encode(a)
	jb, errB := yamljson.Encode(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func equalNode(a, b *yaml.Node) bool {
	a = yamltree.Resolve(a)
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case yaml.ScalarNode:
		return sameScalar(a, b)
	case yaml.MappingNode:
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
	case yaml.SequenceNode:
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
	return false
}
