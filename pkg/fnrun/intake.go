package fnrun

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/dupkeys"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/redact"
)

// intake is what the runner learns from every node of the items and the
// config before the transform runs (and registers the Secrets' values on
// the way): the documents giving a key twice
// (package dupkeys), the input's size (the run's work budget is scaled to
// it) and, in ResourceList mode, each item's Fingerprint (what was not
// changed is written as it was read); on the way, the tag yaml.v3 puts on
// << keys is taken off (package inherit). One walk does all of it: on
// thirty thousand items each further walk is a trip through a few hundred
// megabytes of nodes, and four of them were a tenth of a run's CPU.
type intake struct {
	size budget.Input
	// dups are the documents holding a map that gives a key twice, items
	// first, then the config; dupkeys.Find says where.
	dups []*yaml.RNode
	// prints are the fingerprints of the items takeIn was asked for, taken
	// after the << keys were untagged.
	prints map[*yaml.Node]uint64
}

// takeIn walks items, then config (nil for none), once; print tells
// which items' fingerprints to keep (nil for none). The values of the
// Secrets among the items are registered in secrets (knowResource) item by
// item, while each is at hand.
func takeIn(config *yaml.RNode, items []*yaml.RNode, print func(*yaml.RNode) bool, secrets *redact.Set) *intake {
	w := intakeWalk{in: &intake{prints: map[*yaml.Node]uint64{}}}
	for _, it := range items {
		knowResource(secrets, it.YNode(), 0)
		w.document(it, print != nil && print(it))
	}
	if config != nil {
		w.document(config, false)
	}
	return w.in
}

// unchanged reports whether an item is as it was when its fingerprint
// was taken (false for one takeIn was not asked to print).
func (in *intake) unchanged(it *yaml.RNode) bool {
	before, ok := in.prints[it.YNode()]
	return ok && !Changed(before, it)
}

// intakeWalk is takeIn's walk through one document at a time.
type intakeWalk struct {
	in    *intake
	keys  dupkeys.Checker
	p     printer
	print bool // hashing this document
	dup   bool // a map of this document gives a key twice
}

func (w *intakeWalk) document(d *yaml.RNode, print bool) {
	w.print, w.dup = print, false
	if print {
		w.p.reset()
	}
	w.node(d.YNode())
	if w.dup {
		w.in.dups = append(w.in.dups, d)
	}
	if print {
		w.in.prints[d.YNode()] = w.p.h.Sum64()
	}
}

// node takes in n and what is under it; aliases are not followed (what
// they refer to is taken in where it stands), as budget.Measure counts.
func (w *intakeWalk) node(n *yaml.Node) {
	if n == nil {
		if w.print {
			w.p.enter(nil)
		}
		return
	}
	w.in.size.Nodes++
	w.in.size.Bytes += int64(len(n.Value))
	if n.Kind == yaml.MappingNode {
		inherit.UntagMap(n) // before the keys are hashed
		if !w.dup && w.keys.Map(n) {
			w.dup = true
		}
	}
	if w.print {
		w.p.enter(n)
	}
	for _, c := range n.Content {
		w.node(c)
	}
	if w.print {
		w.p.leave()
	}
}
