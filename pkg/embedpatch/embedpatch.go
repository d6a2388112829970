package embedpatch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/generator/valuemerge"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
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
)

// Patch is a parsed patch, ready to apply to any number of documents.
type Patch struct {
	typ  Type
	node *yaml.RNode    // merge and strategic
	ops  *jsonpatch.Ops // json6902
	// merge: the patch as the overlay of a JSON merge (json) and of a
	// YAML one (yaml, the text as written).
	json, yaml string
	// fill is set for a merge or strategic patch that only fills what is missing
	// (mode: default).
	fill bool
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
	p := &Patch{typ: d.Type, node: d.Node, ops: d.Ops, fill: fill}
	if p.typ == Merge && !fill {
		b, err := yamljson.Encode(d.Node.YNode())
		if err != nil {
			return nil, err
		}
		// Spread over lines, new objects are laid out as the document
		// lays out its own (valuemerge); text already JSON keeps its own
		// spelling.
		if embedded.Check(text, embedded.JSON) == nil {
			p.json = text
		} else {
			var ind bytes.Buffer
			if err := json.Indent(&ind, b, "", "  "); err != nil {
				return nil, err
			}
			p.json = ind.String()
		}
		p.yaml = text
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
	// Secret says the string is a Secret's value; messages show no value or
	// key of it.
	Secret bool
}

// Error is a patch that cannot apply to the document (the document is
// fine): a JSON patch path it does not have, a strategic element without
// its key. Other errors are about the document itself: empty, not JSON or
// YAML, not the declared format.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Apply patches the document held in text and returns the new text. Only
// the bytes the patch changes are rewritten; a patch that changes nothing
// returns text as it is.
func (p *Patch) Apply(text string, o Options) (string, error) {
	eo := embedded.Options{Where: o.Where, Format: o.Format, Secret: o.Secret}
	roots, err := embedded.Get(text, nil, eo)
	if err != nil {
		return "", err
	}
	format := detect(text, o)
	if p.typ == Merge && !p.fill {
		return p.merge(text, format, o)
	}
	want := copyTree(roots[0])
	if err := p.applyNodes(want, o); err != nil {
		return "", err
	}
	return write(text, roots[0], want, eo, format)
}

// copyTree deep-copies a document's nodes, its aliases pointing at the
// copies of their anchors: a patch that changes an anchored value changes
// what its aliases stand for, in the copy as in the text.
func copyTree(root *yaml.Node) *yaml.Node {
	copies := map[*yaml.Node]*yaml.Node{}
	var cp func(n *yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		c := *n
		copies[n] = &c
		if len(n.Content) > 0 {
			c.Content = make([]*yaml.Node, len(n.Content))
			for i, k := range n.Content {
				c.Content[i] = cp(k)
			}
		}
		return &c
	}
	out := cp(root)
	for _, c := range copies {
		if c.Kind == yaml.AliasNode && copies[c.Alias] != nil {
			c.Alias = copies[c.Alias]
		}
	}
	return out
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

// merge is valuemerge's merge, the overlay written for the format.
func (p *Patch) merge(text string, f embedded.Format, o Options) (string, error) {
	vf, overlay := valuemerge.YAML, p.yaml
	if f == embedded.JSON {
		vf, overlay = valuemerge.JSON, p.json
	}
	out, err := valuemerge.Merge(vf, text, overlay)
	var pe *valuemerge.ParseError
	var me *valuemerge.MergeError
	switch {
	case errors.As(err, &pe):
		what := "the string"
		if len(o.Where) > 0 {
			what = "the string at " + o.Where.String()
		}
		if pe.Which == "overlay" {
			what = "the patch"
		}
		where := ""
		if pe.Line > 0 {
			where = fmt.Sprintf(" at line %d", pe.Line)
			if pe.Column > 0 {
				where += fmt.Sprintf(", column %d", pe.Column)
			}
		}
		msg := pe.Msg
		if o.Secret && pe.Which != "overlay" {
			msg = "what is there is not shown (the text is secret)"
		}
		return "", &Error{Msg: fmt.Sprintf("%s is not %s a merge patch can go into%s: %s", what, f, where, msg)}
	case errors.As(err, &me):
		return "", &Error{Msg: me.Msg}
	}
	return out, err
}

// applyNodes applies a json6902 or strategic patch (or a merge patch that
// fills defaults) to the document's nodes.
func (p *Patch) applyNodes(doc *yaml.Node, o Options) error {
	r := yaml.NewRNode(doc)
	switch {
	case p.typ == JSON6902:
		if err := p.ops.ApplyEmbedded(r, o.Secret); err != nil {
			return &Error{Msg: err.Error()}
		}
		return nil
	case p.typ == Merge:
		// A default merge patch: RFC 7386's rules (no list merges) with
		// the default's (fill what is missing).
		return smpError(smp.MergeWith(r, p.node, nil, smp.Options{Default: true}))
	}
	if err := smp.ValidateWith(p.node, o.Type, smp.Options{Default: p.fill}); err != nil {
		return smpError(smp.Result{}, err)
	}
	return smpError(smp.MergeWith(r, p.node, o.Type, smp.Options{Default: p.fill}))
}

func smpError(_ smp.Result, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Msg: err.Error()}
}
