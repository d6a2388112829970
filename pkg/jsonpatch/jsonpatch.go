package jsonpatch

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Ops is a parsed RFC 6902 patch: a list of operations.
type Ops struct {
	patch jsonpatch.Patch
}

// ParseOps reads a JSON patch written in JSON or YAML (a list of operations).
// Each operation is checked first, so an error names it: op[2].
func ParseOps(doc *yaml.RNode) (*Ops, error) {
	if doc.YNode().Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("a JSON patch is a list of operations, got %s", yamltree.Describe(doc.YNode()))
	}
	for i, op := range doc.YNode().Content {
		if err := checkOp(op); err != nil {
			return nil, fmt.Errorf("op[%d]: %v", i, err)
		}
	}
	b, err := yamljson.Encode(doc.YNode(), nil)
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(b)
	if err != nil {
		return nil, err
	}
	return &Ops{patch: p}, nil
}

// checkOp checks one operation: a map with a known op and the fields
// that op needs.
func checkOp(op *yaml.Node) error {
	if op.Kind != yaml.MappingNode {
		return fmt.Errorf("an operation is a map with op and path")
	}
	fields := map[string]*yaml.Node{}
	for i := 0; i+1 < len(op.Content); i += 2 {
		fields[op.Content[i].Value] = op.Content[i+1]
	}
	kind := ""
	if n := fields["op"]; n != nil {
		kind = n.Value
	}
	need, known := opFields[kind]
	switch {
	case kind == "":
		return fmt.Errorf(`missing "op"`)
	case !known:
		return fmt.Errorf("unknown op %q (want add, remove, replace, move, copy or test)", kind)
	}
	for _, f := range need {
		if fields[f] == nil {
			return fmt.Errorf(`%s: missing %q`, kind, f)
		}
	}
	return checkWholeDocument(kind, fields)
}

// opFields are the fields each op needs beside op.
var opFields = map[string][]string{
	"add": {"path", "value"}, "replace": {"path", "value"}, "test": {"path", "value"},
	"remove": {"path"},
	"move":   {"path", "from"}, "copy": {"path", "from"},
}

// checkWholeDocument refuses, with a message, what no operation can do to
// path "", the whole document: the library's own errors for it read
// "%!w(<nil>)" and "Go value of type map[string]*jsonpatch.lazyNode".
func checkWholeDocument(kind string, fields map[string]*yaml.Node) error {
	if p := fields["path"]; p.Kind != yaml.ScalarNode || p.Value != "" {
		return nil
	}
	switch kind {
	case "remove":
		return fmt.Errorf(`remove "": path "" is the whole resource, which a JSON patch cannot remove`)
	case "add", "replace":
		if v := yamltree.Resolve(fields["value"]); v.Kind != yaml.MappingNode {
			return fmt.Errorf(`%s "": path "" is the whole resource, so the value must be a map, not %s`, kind, yamltree.Describe(v))
		}
	}
	return nil
}

// Apply applies the operations to doc in place. On error doc is unchanged
// and the error names the failing operation and its path. What the patch
// adds to the document is charged to b (nil: a budget of its own).
func (o *Ops) Apply(doc *yaml.RNode, b *budget.Budget) error {
	b = budget.Or(b)
	return withInherited(doc, b, func(d *yaml.RNode) error {
		return o.apply(d, view{secret: d.GetKind() == "Secret", shape: schema.Builtin().Shape(d.GetApiVersion(), d.GetKind())}, b)
	})
}

// ApplyEmbedded is Apply for a document held in a string (the config.json
// of a ConfigMap): paths address its root, which messages call "the
// document". With secret (the string is a Secret's value) messages name
// no key found in it.
func (o *Ops) ApplyEmbedded(doc *yaml.RNode, secret bool, b *budget.Budget) error {
	b = budget.Or(b)
	return withInherited(doc, b, func(d *yaml.RNode) error {
		return o.apply(d, view{secret: secret, embedded: true}, b)
	})
}

func (o *Ops) apply(doc *yaml.RNode, v view, b *budget.Budget) error {
	return rewrite(doc, nil, b, func(in []byte) ([]byte, error) {
		out, err := o.run(in, b)
		var spent *budget.Error
		switch {
		case errors.As(err, &spent):
			return nil, fmt.Errorf("the operations' copies: %w", err)
		case err != nil:
			return nil, o.explain(in, err, v)
		}
		return out, nil
	})
}

// explain finds the operation that failed by applying them one at a time;
// only a failing patch pays for it. When the operation's path does not
// resolve, the message says where it stops and what is there (opHint)
// rather than the library's "doc is missing key".
func (o *Ops) explain(in []byte, whole error, v view) error {
	cur := in
	for i, op := range o.patch {
		next, err := jsonpatch.Patch{op}.Apply(cur)
		if err != nil {
			path, _ := op.Path()
			from, _ := op.From()
			if h := opHint(cur, op.Kind(), path, from, v); h != "" {
				return fmt.Errorf("op[%d] %s %s: %s", i, op.Kind(), path, h)
			}
			if path == "" {
				path = `""`
			}
			return fmt.Errorf("op[%d] %s %s: %v", i, op.Kind(), path, err)
		}
		cur = next
	}
	return whole
}

// MergePatch is a parsed RFC 7386 merge patch.
type MergePatch struct {
	raw  []byte
	node *yaml.Node // as written: the order new keys take
}

// ParseMergePatch reads a merge patch (a map) written in JSON or YAML.
func ParseMergePatch(doc *yaml.RNode) (*MergePatch, error) {
	if doc.YNode().Kind != yaml.MappingNode {
		return nil, fmt.Errorf("a merge patch is a map, got %s", yamltree.Describe(doc.YNode()))
	}
	b, err := yamljson.Encode(doc.YNode(), nil)
	if err != nil {
		return nil, err
	}
	return &MergePatch{raw: b, node: doc.YNode()}, nil
}

// Apply merges the patch into doc in place; what it adds is charged to b
// (nil: a budget of its own).
func (m *MergePatch) Apply(doc *yaml.RNode, b *budget.Budget) error {
	return Rewrite(doc, m.node, b, func(in []byte) ([]byte, error) { return jsonpatch.MergePatch(in, m.raw) })
}

// Rewrite changes doc as change changes its JSON form: change gets the
// document as JSON (as Kubernetes readers convert it) and returns the new
// one, which is brought back onto doc's nodes, touching only those whose
// values differ (syncJSON: unchanged fields keep their comments, order and
// quoting). hint, when given, is the patch as written, whose order new
// keys take. A document holding YAML << keys is changed as its readers see
// it (withInherited). What the change adds is charged to b (nil: a budget
// of its own). On error doc is unchanged.
func Rewrite(doc *yaml.RNode, hint *yaml.Node, b *budget.Budget, change func(in []byte) ([]byte, error)) error {
	b = budget.Or(b)
	return withInherited(doc, b, func(d *yaml.RNode) error { return rewrite(d, hint, b, change) })
}

func rewrite(doc *yaml.RNode, hint *yaml.Node, b *budget.Budget, change func([]byte) ([]byte, error)) error {
	in, err := yamljson.Encode(doc.YNode(), b)
	if err != nil {
		return err
	}
	out, err := change(in)
	if err != nil {
		return err
	}
	if bytes.Equal(in, out) {
		return nil
	}
	if err := charge(b, in, out); err != nil {
		return err
	}
	return syncJSON(doc, out, hint)
}

// withInherited applies a patch to a document that may hold YAML << keys
// (<<). Their entries are not the map's own: a patch removing an inherited
// value would fail or leave it inherited, and one editing an anchored map
// would change every map merging it. So the patch applies to a copy with
// merge keys and aliases expanded (charged to b), which replaces the
// document only when the patch changed something.
func withInherited(doc *yaml.RNode, b *budget.Budget, apply func(*yaml.RNode) error) error {
	if !inherit.Contains(doc.YNode()) {
		return apply(doc)
	}
	flat, err := inherit.Expand(doc.YNode(), b)
	if err != nil && !errors.Is(err, inherit.ErrTooLarge) {
		// merge keys with a value no reader accepts: patched as written
		return apply(doc)
	}
	if err != nil {
		return err
	}
	before, err := inherit.Expand(flat, b)
	if err != nil {
		return err
	}
	patched := yaml.NewRNode(flat)
	if err := apply(patched); err != nil {
		return err
	}
	if !inherit.Equal(patched.YNode(), before) {
		*doc.YNode() = *patched.YNode()
	}
	return nil
}
