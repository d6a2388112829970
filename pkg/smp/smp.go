package smp

import (
	"errors"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// Error is a patch that cannot be applied. Path locates the offending node in
// kustomize's field-path notation, e.g.
// spec.template.spec.containers[name=app].ports; it is empty for the root.
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Merge merges patch into dst in place. t is the schema type of dst's root;
// nil means nothing is known (maps merge, lists are replaced).
//
// patch is never modified and none of its nodes end up in dst (they are
// copied), so one patch can be applied to any number of documents. When Merge
// returns an error dst may be partly merged; call Validate first to avoid it.
// A patch whose root carries `$patch: delete` is refused: the caller removes
// the resource (see IsDeleteDirective).
func Merge(dst, patch *yaml.RNode, t *schema.Type) error {
	_, err := MergeWith(dst, patch, t, Options{})
	return err
}

// MergeElements is Merge, also telling what became of each element of a
// keyed list (containers, ports, env...) that the patch names: merged into
// the document's element with the same keys, or added as a new one. A user
// patching container "server" everywhere rarely means to add one where
// there is none (see Element).
func MergeElements(dst, patch *yaml.RNode, t *schema.Type) ([]Element, error) {
	r, err := MergeWith(dst, patch, t, Options{Track: true})
	return r.Elements, err
}

// Options change what a merge does.
type Options struct {
	// Track fills Result.Elements (see MergeElements).
	Track bool
	// Default makes the patch a set of defaults (a config's mode:
	// default): it fills what the document lacks and changes nothing
	// there. A scalar is written only where the document has none (no
	// field, or null); maps recurse, and a missing one is created with
	// what the patch fills in it; a keyed list merges into the elements
	// with the patch element's keys and gains none; any other list is
	// written only where there is none. A patch that would remove
	// something (null, $patch: delete or replace, $retainKeys,
	// $deleteFromPrimitiveList, $setElementOrder) is an error, for every
	// document alike (Validate reports it).
	Default bool
	// Values says the document is a value held in a string (a config
	// file), not a Kubernetes object: a key starting with $ that is no
	// directive is its data (JSON Schema's $schema and $ref), where in an
	// object it is a misspelt directive unless the schema has the field.
	Values bool
	// Budget is charged for what the merge may add to the document: every
	// node of the patch it visits, every node of the document it copies
	// (nil: a budget of the merge's own, package budget's floors).
	Budget *budget.Budget
}

// Result is what a merge did.
type Result struct {
	// Elements is what MergeElements reports (with Options.Track).
	Elements []Element
	// Filled counts the values a Default merge wrote where the document
	// had none: scalars, and lists written whole.
	Filled int
}

// MergeWith is Merge with options.
func MergeWith(dst, patch *yaml.RNode, t *schema.Type, o Options) (Result, error) {
	if dst == nil || dst.Document() == nil {
		return Result{}, &Error{Msg: "no document to patch"}
	}
	pn, err := patchRoot(patch)
	if err != nil {
		return Result{}, err
	}
	if rootDirective(pn) == directiveDelete {
		return Result{}, &Error{Msg: "the patch deletes the whole resource ($patch: delete); it cannot be merged"}
	}

	doc := dst.Document() // not YNode(): it panics on an empty document
	root := unwrapDocument(doc)
	if root != nil && inherit.Contains(root) {
		return mergeExpanded(doc, root, pn, patch, t, o)
	}
	return mergeInto(doc, root, pn, t, o)
}

// mergeInto merges the patch root pn into the document doc, whose root is
// root (nil for an empty document).
func mergeInto(doc, root, pn *yaml.Node, t *schema.Type, o Options) (Result, error) {
	m := newMerger(o.Budget)
	m.track, m.fill, m.values = o.Track, o.Default, o.Values
	r, err := m.value(root, pn, t)
	if err != nil {
		return Result{}, err
	}
	switch {
	case r == nil:
		// Not reachable: a null or deleting root was refused above (a
		// default that fills nothing in an empty document returns it).
	case root == nil:
		doc.Content = append(doc.Content, r)
	case r != root:
		*root = *r
	}
	if m.aliasesAtRisk {
		fixAliases(doc)
	}
	return Result{Elements: m.elements, Filled: m.filled}, nil
}

// mergeExpanded merges into a document that holds YAML << keys.
// In place, deleting an inherited value would leave it inherited and
// editing an anchored map would change every map merging it, so the merge
// works on a copy with merge keys and aliases expanded, which replaces the
// document only when the patch changed something: a document the patch
// leaves as it is keeps its spelling.
func mergeExpanded(doc, root, pn *yaml.Node, patch *yaml.RNode, t *schema.Type, o Options) (Result, error) {
	if o.Budget == nil {
		o.Budget = ownBudget() // one budget for the expansion and the merge
	}
	flat, err := inherit.Expand(root, o.Budget)
	if errors.Is(err, inherit.ErrTooLarge) {
		return Result{}, &Error{Msg: err.Error()}
	}
	if err != nil {
		// Merge keys with a value no reader accepts: nothing to expand,
		// the document is merged as it is written.
		return mergeInto(doc, root, pn, t, o)
	}
	before, err := inherit.Expand(flat, o.Budget)
	if err != nil {
		return Result{}, &Error{Msg: err.Error()}
	}
	expanded := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{flat}}
	res, err := MergeWith(yaml.NewRNode(expanded), patch, t, o)
	if err != nil {
		return Result{}, err
	}
	if !inherit.Equal(expanded.Content[0], before) {
		*root = *expanded.Content[0]
	}
	return res, nil
}

// Validate reports the error Merge would report for this patch and schema
// type, without a document. It accepts a root `$patch: delete`.
func Validate(patch *yaml.RNode, t *schema.Type) error {
	return ValidateWith(patch, t, Options{})
}

// ValidateWith is Validate for MergeWith with these options. A Default
// patch may not delete its resource either.
func ValidateWith(patch *yaml.RNode, t *schema.Type, o Options) error {
	pn, err := patchRoot(patch)
	if err != nil {
		return err
	}
	if rootDirective(pn) == directiveDelete {
		if o.Default {
			return &Error{Msg: "mode: default fills what is missing and removes nothing: a patch that is $patch: delete cannot be a default"}
		}
		return nil
	}
	m := newMerger(o.Budget)
	m.fill, m.values = o.Default, o.Values
	_, err = m.value(nil, pn, t)
	return err
}

// IsDeleteDirective reports whether the patch's root carries `$patch: delete`,
// which asks for the whole resource to be removed.
func IsDeleteDirective(patch *yaml.RNode) bool {
	if patch == nil {
		return false
	}
	return rootDirective(unwrapDocument(patch.Document())) == directiveDelete
}

// patchRoot returns the root node of a patch, refusing empty patches: an empty
// patch file is far more likely a mistake than a wish to change nothing.
func patchRoot(patch *yaml.RNode) (*yaml.Node, error) {
	if patch == nil {
		return nil, &Error{Msg: "the patch is empty"}
	}
	pn := yamltree.Resolve(unwrapDocument(patch.Document()))
	if pn == nil || yamltree.IsNull(pn) {
		return nil, &Error{Msg: "the patch is empty"}
	}
	return pn, nil
}

func unwrapDocument(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return n.Content[0]
	}
	return n
}

// rootDirective returns the $patch value of a map node, "" when absent or not
// a map. Its validity is checked by the merge itself.
func rootDirective(n *yaml.Node) string {
	n = yamltree.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	if v := yamltree.Lookup(n, keyPatch); v != nil {
		if v = yamltree.Resolve(v); v.Kind == yaml.ScalarNode {
			return v.Value
		}
	}
	return ""
}
