package fnrun

import (
	"fmt"
	"hash/maphash"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Summarize records the line a successful run reports for one config entry
// (issue 14, "A line on success"): kpt shows a function's results, and a
// run with none leaves the user guessing what happened. The summaries join
// the results only when the run succeeds: a failed run changed nothing, and
// "3 resources changed" beside the errors would say otherwise.
func (r *Request) Summarize(entry, format string, args ...any) {
	r.summary = append(r.summary, result(framework.Info, entry, nil, "", fmt.Sprintf(format, args...)))
}

// Changed reports whether a node differs from when its Fingerprint was taken.
func Changed(before uint64, n *yaml.RNode) bool { return Fingerprint(n) != before }

var fingerprintSeed = maphash.MakeSeed()

// Fingerprint hashes a node's content (kinds, tags, styles, values,
// comments), so that a transform can tell the resources an entry changed
// from those it selected and left as they were (a second run), without
// copying them.
func Fingerprint(n *yaml.RNode) uint64 {
	var p printer
	p.reset()
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if !p.enter(n) {
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
		p.leave()
	}
	walk(n.YNode())
	return p.h.Sum64()
}

// printer hashes a tree in the order Fingerprint walks it, for Fingerprint
// and for the runner's intake walk, which takes the items' fingerprints
// on its way through them.
type printer struct{ h maphash.Hash }

func (p *printer) reset() {
	p.h.SetSeed(fingerprintSeed)
}

// enter hashes n itself, before its children; false for a nil node, which
// has none.
func (p *printer) enter(n *yaml.Node) bool {
	if n == nil {
		p.h.WriteByte(0)
		return false
	}
	p.h.WriteByte(byte(n.Kind))
	p.h.WriteByte(byte(n.Style))
	p.h.WriteString(n.Tag)
	p.h.WriteByte(0)
	p.h.WriteString(n.Value)
	p.h.WriteByte(0)
	p.h.WriteString(n.HeadComment)
	p.h.WriteString(n.LineComment)
	p.h.WriteString(n.FootComment)
	p.h.WriteByte(byte(len(n.Content)))
	return true
}

// leave closes a node entered, after its children.
func (p *printer) leave() { p.h.WriteByte(1) }

// Same reports whether two trees are the same in everything Fingerprint
// hashes (kinds, tags, styles, values, comments): Changed for a caller
// that kept a copy of the tree, which stops at the first difference where
// a fingerprint walks the whole tree twice.
func Same(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value ||
		a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment ||
		len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !Same(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

// Plural is "1 resource", "3 resources".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
