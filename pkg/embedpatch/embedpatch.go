package embedpatch

import (
	"errors"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/dupkeys"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
)

// Type is the kind of a patch: package patch's.
type Type = patch.Type

// The types a patch into a string may have.
const (
	// Merge is an RFC 7386 merge patch.
	Merge = patch.Merge
	// JSON6902 is a list of RFC 6902 operations.
	JSON6902 = patch.JSON
	// Strategic is a strategic merge patch.
	Strategic = patch.Strategic
	// Apply is an apply configuration, merged as server-side apply merges
	// one.
	Apply = patch.Apply
)

// Patch is a parsed patch, ready to apply to any number of documents.
type Patch struct {
	typ  Type
	node *yaml.RNode    // merge and strategic
	ops  *jsonpatch.Ops // json6902
	// json is a merge patch as JSON text: values it brings whole into a
	// JSON document keep the spelling it gives them on one line.
	json string
	// fill is set for a merge or strategic patch that only fills what is missing
	// (mode: default).
	fill bool
	// doc is the compiled document, which an apply patch applies.
	doc *patch.Doc
}

// Parse reads a patch written in YAML or JSON, of type typ (0: a list
// is json6902, a map merge), one document (package patch). With fill (a
// config's mode: default) a merge or strategic patch writes only what the
// document lacks (smp.Options.Default).
func Parse(typ Type, text string, fill bool) (*Patch, error) {
	docs, err := patch.Parse(text, patch.Options{Into: patch.String, Type: typ, Default: fill})
	if err != nil {
		return nil, err
	}
	d := docs[0]
	p := &Patch{typ: d.Type, node: d.Node, ops: d.Ops, fill: fill, doc: d}
	if p.typ == Merge && !fill && embedded.Check(text, embedded.JSON) == nil {
		p.json = text
	}
	return p, nil
}

// Options say where the string is and what merges how.
type Options struct {
	// Where names the field holding the string, for messages and for the
	// format (a key named *.json holds JSON).
	Where fieldpath.Path
	// Format is the document's language; 0: as structured-replacement
	// decides (a key named *.json: JSON; otherwise JSON when it starts
	// with { or [ and parses as JSON, YAML otherwise).
	Format embedded.Format
	// Type is the document's merge metadata for a strategic patch: the
	// lists declared below the string (nil: every list is replaced).
	Type *schema.Type
	// Apply types the document for an apply patch, by its own apiVersion
	// and kind (a manifest held in a string); a document without them, or
	// of a kind it does not know, merges as deduced from its values (maps
	// key by key, lists replaced). nil: the built-in kinds.
	Apply *apply.Schema
	// Secret says the string is a Secret's value; messages show no value or
	// key of it.
	Secret bool
	// Budget is the run's work budget, charged for what the patch adds
	// (nil: a budget of the call's own).
	Budget *budget.Budget
}

// Error is a patch that cannot apply to the document (the document is
// fine): a JSON patch path it does not have, a strategic element without
// its key. Other errors are about the document itself: empty, not JSON or
// YAML, not the declared format.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Apply patches the document held in text and returns the new text. Only
// the bytes the patch changes are rewritten (package valuemerge's Doc, the
// one writer of every merge and patch into a string); a patch that changes
// nothing returns text as it is.
func (p *Patch) Apply(text string, o Options) (string, error) {
	doc, err := p.open(text, o)
	if err != nil {
		return "", err
	}
	if err := p.applyNodes(doc.Want, o); err != nil {
		return "", err
	}
	return write(doc)
}

// open reads the document held in text for the patch: as JSON or YAML
// (detect), a JSON merge patch's own text standing ready for the values
// it brings whole.
func (p *Patch) open(text string, o Options) (*valuemerge.Doc, error) {
	eo := embedded.Options{Where: o.Where, Format: o.Format, Secret: o.Secret}
	roots, err := embedded.Get(text, nil, eo)
	if err != nil {
		return nil, err
	}
	if err := keysOnce(roots[0], o.Secret); err != nil {
		return nil, err
	}
	vo := valuemerge.Options{Format: valuemerge.YAML, Edit: eo}
	if detect(text, o) == embedded.JSON {
		vo.Format = valuemerge.JSON
		if p.json != "" {
			vo.Overlay = &valuemerge.Overlay{Text: p.json, Root: p.node.YNode()}
		}
	}
	doc, err := valuemerge.Open(text, roots[0], vo)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return doc, nil
}

// keysOnce refuses a document with a map that gives a key twice: readers
// take the last, an edit would change the first, and a merge into it could
// leave the text as it was without a word (null for the key deleted the
// first, which the second then stood for).
func keysOnce(root *yaml.Node, secret bool) error {
	d := dupkeys.Find(root)
	if len(d) == 0 {
		return nil
	}
	msg := d[0].MessageOf("the value")
	if secret {
		msg = d[0].MessageHidingKeys("the value")
	}
	return &embedded.Error{Msg: msg, Ambiguous: true}
}

// write writes the patched document as edits of its text, or whole where
// the edits cannot say it; what the patch cannot do to the document is an
// Error.
func write(doc *valuemerge.Doc) (string, error) {
	out, err := doc.Write()
	var me *valuemerge.MergeError
	switch {
	case errors.As(err, &me):
		return "", &Error{Msg: me.Msg}
	case errors.Is(err, valuemerge.ErrOtherKind):
		return "", &Error{Msg: "the patch replaces the whole document with another kind of value; patch the field holding the string instead"}
	case errors.Is(err, valuemerge.ErrNotInPlace) && !errors.As(err, new(*embedded.Error)):
		// A value inherited through a YAML << key that goes, say:
		// the document is written whole from its new value.
		return doc.WriteWhole()
	case err != nil:
		// the document was read: what cannot be written into it (a map
		// with an anchor emptied, a key deleted from a line it shares)
		// is the patch's, not a document missing
		return "", &Error{Msg: err.Error()}
	}
	return out, nil
}

// detect is the format of text as package embedded reads it.
func detect(text string, o Options) embedded.Format {
	if o.Format != 0 {
		return o.Format
	}
	if n := len(o.Where); n > 0 && o.Where[n-1].Kind == fieldpath.Field && strings.HasSuffix(strings.ToLower(o.Where[n-1].Key), ".json") {
		return embedded.JSON
	}
	t := strings.TrimLeft(text, " \t\r\n")
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && embedded.Check(text, embedded.JSON) == nil {
		return embedded.JSON
	}
	return embedded.YAML
}

// applyNodes applies a json6902 or strategic patch (or a merge patch that
// fills defaults) to the document's nodes.
func (p *Patch) applyNodes(doc *yaml.Node, o Options) error {
	r := yaml.NewRNode(doc)
	so := smp.Options{Default: p.fill, Values: true, Budget: o.Budget}
	switch {
	case p.typ == JSON6902:
		if err := p.ops.ApplyEmbedded(r, o.Secret, o.Budget); err != nil {
			return &Error{Msg: err.Error()}
		}
		return nil
	case p.typ == Merge:
		// RFC 7386: strategic merge without a schema (no list merges),
		// filling only what is missing for a default.
		return smpError(smp.MergeWith(r, p.node, nil, so))
	case p.typ == Apply:
		t, err := applyType(doc, o)
		if err != nil {
			return &Error{Msg: err.Error()}
		}
		return smpError(p.doc.Apply(r, patch.Types{Apply: t}, o.Budget))
	}
	if err := smp.ValidateWith(p.node, o.Type, so); err != nil {
		return smpError(smp.Result{}, err)
	}
	return smpError(smp.MergeWith(r, p.node, o.Type, so))
}

// applyType is the type of a document for an apply patch: its kind's, when
// it names one.
func applyType(doc *yaml.Node, o Options) (apply.Type, error) {
	s := o.Apply
	if s == nil {
		s = apply.Builtin()
	}
	apiVersion, kind := yamltree.Lookup(doc, "apiVersion"), yamltree.Lookup(doc, "kind")
	if apiVersion == nil || kind == nil || apiVersion.Kind != yaml.ScalarNode || kind.Kind != yaml.ScalarNode {
		return apply.Type{}.Secret(o.Secret), nil
	}
	t, err := s.For(apiVersion.Value, kind.Value)
	return t.Secret(o.Secret), err
}

func smpError(_ smp.Result, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Msg: err.Error()}
}
