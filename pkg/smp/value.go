package smp

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// ownBudget is the budget of a merge called without one (Options.Budget
// nil): budget.Or's. A variable so that the fuzz tests can make alias
// bombs quick.
var ownBudget = func() *budget.Budget { return budget.Or(nil) }

// merger holds the state of one Merge or Validate call.
type merger struct {
	// budget is charged for every patch node the merge visits and every
	// document node it copies: what the merge may add to the document.
	// inAlias is > 0 while the merge walks patch nodes reached through an
	// alias (what an alias bomb multiplies).
	budget  *budget.Budget
	inAlias int
	// path is where the merge is, for error messages.
	path []seg
	// aliasesAtRisk is set when a subtree with anchors or aliases was removed
	// or moved, so the document's aliases must be checked after the merge.
	aliasesAtRisk bool
	// track says to record what became of keyed list elements (MergeElements).
	track    bool
	elements []Element
	// whole is > 0 while the merge builds something new as a whole (a
	// new element, a list or map the patch replaces): the keyed elements
	// inside are part of it, not reported on their own.
	whole int
	// fill is set for a Default merge (fill.go); filled counts what it wrote, except
	// while quiet > 0 (what it builds only to check, or inside a list it
	// writes whole).
	fill   bool
	filled int
	quiet  int
	// values is Options.Values.
	values bool
}

func newMerger(b *budget.Budget) merger {
	if b == nil {
		b = ownBudget()
	}
	return merger{path: make([]seg, 0, 16), budget: b}
}

// spend charges the budget for node n, which the merge may add to the
// document, and the text it carries.
func (m *merger) spend(n *yaml.Node) error {
	err := m.budget.Nodes(1)
	if err == nil && n.Kind == yaml.ScalarNode {
		err = m.budget.Bytes(len(n.Value))
	}
	switch {
	case err == nil:
		return nil
	case m.inAlias > 0:
		return m.tooLarge(err)
	}
	return m.errorf("%v", err)
}

// tooLarge is the error of a budget spent on what aliases stand for.
func (m *merger) tooLarge(err error) *Error {
	return m.errorf("%v: %v", inherit.ErrTooLarge, err)
}

// dropped records that a document subtree is leaving the tree.
func (m *merger) dropped(n *yaml.Node) {
	if !m.aliasesAtRisk && n != nil && hasAnchorOrAlias(n) {
		m.aliasesAtRisk = true
	}
}

// droppedAll is dropped for each of nodes.
func (m *merger) droppedAll(nodes []*yaml.Node) {
	for _, n := range nodes {
		m.dropped(n)
	}
}

// value merges the patch node p into the document node d and returns the node
// that belongs in d's place: d itself when merged in place, a new node when
// replaced, nil when the field or element is to be removed. d may be nil
// (absent); the result then is built from the patch alone, by the same code,
// which is why the errors never depend on the document.
func (m *merger) value(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	if p.Kind == yaml.AliasNode {
		m.inAlias++
		defer func() { m.inAlias-- }()
	}
	if err := m.spend(p); err != nil {
		return nil, err
	}
	p = yamltree.Resolve(p)
	switch p.Kind {
	case yaml.ScalarNode:
		return m.scalarValue(d, p)
	case yaml.MappingNode:
		return m.mapValue(d, p, t)
	case yaml.SequenceNode:
		return m.list(d, p, t)
	case yaml.AliasNode:
		return nil, m.errorf("the patch holds an alias without a target")
	}
	return nil, m.errorf("unsupported YAML node in the patch")
}

// scalarValue is value for a scalar of the patch: null deletes, a default
// fills only where the document has nothing, any other scalar is set.
func (m *merger) scalarValue(d, p *yaml.Node) (*yaml.Node, error) {
	if yamltree.IsNull(p) {
		if m.fill {
			return nil, m.refuseInDefault("null (which deletes the field)")
		}
		return nil, nil
	}
	if m.fill {
		if has(d) {
			return d, nil
		}
		m.count()
	}
	return m.scalar(d, p), nil
}

// mapValue is value for a map of the patch: what its $patch says (delete,
// replace, or merge into the document's map).
func (m *merger) mapValue(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	dir, err := m.mapDirective(p)
	if err != nil {
		return nil, err
	}
	if err := m.refusePatch(dir); err != nil {
		return nil, err
	}
	switch {
	case dir == directiveDelete:
		return nil, nil
	case m.keepsOwn(d, t):
		// The document has its own value here: a default leaves it.
		return d, m.dryRun(p, t)
	case dir == directiveReplace || replacesMap(t):
		m.whole++
		defer func() { m.whole-- }()
		return m.replaceMap(d, p, t)
	}
	return m.mergeMapInto(d, p, t)
}

// replacesMap reports whether the schema says a patch replaces the map
// as a whole ($patch: replace without saying it).
func replacesMap(t *schema.Type) bool { return t != nil && t.ReplaceMap }

// mergeMapInto merges patch map p into the document's value d (a map, or
// anything a map replaces).
func (m *merger) mergeMapInto(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	orig := d
	d, err := m.own(d, p, yaml.MappingNode, false)
	if err != nil {
		return nil, err
	}
	if err := m.mergeMap(d, p, t); err != nil {
		return nil, err
	}
	if m.fill && !has(orig) {
		switch {
		case len(p.Content) == 0:
			m.count() // an empty map, written where there was none
		case len(d.Content) == 0:
			// Nothing filled inside (only elements of lists that are
			// not there): no empty map where there was none.
			return orig, nil
		}
	}
	return d, nil
}

// scalar sets a scalar. An existing scalar is updated in place, so it keeps
// its anchor and its comments (unless the patch brings its own); an equal
// value is left alone.
func (m *merger) scalar(d, p *yaml.Node) *yaml.Node {
	if standsFor(d, p) {
		return d // the alias already stands for this value
	}
	if d == nil || d.Kind != yaml.ScalarNode {
		m.dropped(d)
		return shell(p)
	}
	if !scalarEqual(d, p) {
		setScalar(d, p)
	}
	takeComments(d, p)
	return d
}

// standsFor reports whether the document's node d is an alias of the
// patch's scalar p.
func standsFor(d, p *yaml.Node) bool {
	if d == nil || d.Kind != yaml.AliasNode {
		return false
	}
	rd := yamltree.Resolve(d)
	return rd.Kind == yaml.ScalarNode && scalarEqual(rd, p)
}

// setScalar gives document scalar d the patch's value. A new value of the
// same type keeps the document's quoting style (the encoder still quotes a
// string that would read as another type); a change of type takes the
// patch's tag and style, which carry it.
func setScalar(d, p *yaml.Node) {
	if tagOf(d) != tagOf(p) || d.Style&yaml.TaggedStyle != 0 || p.Style&yaml.TaggedStyle != 0 {
		d.Tag, d.Style = p.Tag, p.Style
	}
	d.Value = p.Value
	scalar.QuoteIfNeeded(d)
}

// takeComments copies the patch's comments onto a merged node, as kustomize
// does: a comment in the patch wins, the document's stays otherwise.
func takeComments(d, p *yaml.Node) {
	if p.HeadComment != "" {
		d.HeadComment = p.HeadComment
	}
	if p.LineComment != "" {
		d.LineComment = p.LineComment
	}
	if p.FootComment != "" {
		d.FootComment = p.FootComment
	}
}

// own returns the container node to merge into: d itself when it is of the
// patch's kind, a private copy when d is an alias of one (the anchored
// original must not change), a new empty node otherwise. With fresh, the
// existing content is dropped ($patch: replace) but the node, and so its
// comments, stays.
func (m *merger) own(d, p *yaml.Node, kind yaml.Kind, fresh bool) (*yaml.Node, error) {
	switch {
	case d == nil:
		return shell(p), nil
	case d.Kind == kind:
		if fresh && len(d.Content) > 0 {
			m.droppedAll(d.Content)
			d.Content = nil
		}
		return d, nil
	case d.Kind == yaml.AliasNode && yamltree.Resolve(d).Kind == kind && !fresh:
		return m.copyDocument(yamltree.Resolve(d))
	}
	m.dropped(d)
	return shell(p), nil
}

// replaceMap gives the document the patch's map ($patch: replace, or a map
// the schema says is replaced as a whole).
func (m *merger) replaceMap(d, p *yaml.Node, t *schema.Type) (*yaml.Node, error) {
	n := shell(p)
	if err := m.mergeMap(n, p, t); err != nil {
		return nil, err
	}
	return m.replaceWith(d, n, p), nil
}

// replaceWith gives the document's node d the value n, built from the
// patch's p alone, and returns the node that belongs in d's place. A value
// equal to n is left untouched, comments and quoting included; a node of
// n's kind keeps its comments and takes n's content; anything else gives
// way to n.
func (m *merger) replaceWith(d, n, p *yaml.Node) *yaml.Node {
	switch {
	case d == nil:
		return n
	case deepEqual(d, n):
		return d
	case d.Kind == n.Kind:
		m.droppedAll(d.Content)
		d.Content = n.Content
		settleStyle(d, p, true)
		return d
	}
	m.dropped(d)
	return n
}

// liftLineComment makes the line comment of a block map or list in a block
// list (one it took from a flow patch element, `- {name: a} # c`) a head
// comment: yaml.v3 writes it after the element's content, on the next
// element's line, which breaks the YAML when that element is `{}`.
func liftLineComment(e *yaml.Node) {
	if (e.Kind != yaml.MappingNode && e.Kind != yaml.SequenceNode) || e.Style&yaml.FlowStyle != 0 ||
		len(e.Content) == 0 || e.LineComment == "" {
		return
	}
	if e.HeadComment != "" {
		e.HeadComment += "\n"
	}
	e.HeadComment += e.LineComment
	e.LineComment = ""
}

// settleStyle decides the flow/block style of a container the merge filled:
// one that was empty takes the patch's style, so `annotations: {}` patched
// with block content comes out as a block (kustomize does the same). One that
// is empty is marked flow: it is written {} or [] either way, and a comment
// on it then stays valid YAML (the encoder writes an empty block container
// with a line comment as "a: # c" followed by "{}" on the next line).
func settleStyle(d, p *yaml.Node, wasEmpty bool) {
	switch {
	case len(d.Content) == 0:
		d.Style |= yaml.FlowStyle
	case wasEmpty:
		d.Style = d.Style&^yaml.FlowStyle | p.Style&yaml.FlowStyle
	}
	if d.Kind == yaml.SequenceNode && d.Style&yaml.FlowStyle == 0 {
		for _, e := range d.Content {
			liftLineComment(e)
		}
	}
}
