package jsonpatch

import (
	"bytes"
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/yamljson"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// syncJSON makes doc equal to the JSON document out while touching only the
// nodes whose values differ: unchanged fields keep their comments, order and
// quoting; new map keys are appended; a changed scalar keeps its comments.
func syncJSON(doc *yaml.RNode, out []byte) error {
	want, err := yaml.Parse(string(out))
	if err != nil {
		return fmt.Errorf("reading patched document: %w", err)
	}
	plain(want.YNode())
	syncNode(doc.YNode(), want.YNode())
	return nil
}

// plain drops the JSON quoting the parser records, so new strings are
// written the way YAML writes them (quoted only when they must be).
func plain(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Style == yaml.DoubleQuotedStyle {
		n.Style = 0
	}
	if n.Kind != yaml.ScalarNode {
		n.Style = 0
	}
	for _, c := range n.Content {
		plain(c)
	}
}

func syncNode(dst, want *yaml.Node) {
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
		}
		return
	}
	switch {
	case dst.Kind == yaml.MappingNode && want.Kind == yaml.MappingNode:
		syncMap(dst, want)
	case dst.Kind == yaml.SequenceNode && want.Kind == yaml.SequenceNode:
		syncSeq(dst, want)
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
		}
	default:
		replaceKeepComments(dst, want)
	}
}

func replaceKeepComments(dst, want *yaml.Node) {
	head, line, foot := dst.HeadComment, dst.LineComment, dst.FootComment
	*dst = *want
	dst.HeadComment, dst.LineComment, dst.FootComment = head, line, foot
}

func syncMap(dst, want *yaml.Node) {
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
		syncNode(v, w)
		kept = append(kept, k, v)
	}
	dst.Content = kept
	for i := 0; i+1 < len(want.Content); i += 2 {
		if !seen[want.Content[i].Value] {
			dst.Content = append(dst.Content, want.Content[i], want.Content[i+1])
		}
	}
}

// syncSeq keeps the original element nodes that are still there, in the new
// order: elements equal to a new one are matched first, in order; what is
// left is synced position by position or taken from the new list.
func syncSeq(dst, want *yaml.Node) {
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
	// Unmatched new elements take the unmatched old element at the same
	// position when there is one (a changed element keeps its comments).
	for i, w := range want.Content {
		if out[i] != nil {
			continue
		}
		if i < len(old) && !used[i] && old[i].Kind == w.Kind {
			used[i] = true
			syncNode(old[i], w)
			out[i] = old[i]
			continue
		}
		out[i] = w
	}
	dst.Content = out
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
	if a.Kind == yaml.DocumentNode {
		a = a.Content[0]
	}
	for a.Kind == yaml.AliasNode && a.Alias != nil {
		a = a.Alias
	}
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
