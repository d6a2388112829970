package patch

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/dupkeys"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// ErrEmpty is Parse's error for a text without a document: nothing, only
// comments, or null. (kustomize skips a patch file like that.)
var ErrEmpty = errors.New("the patch is empty")

// Options say how Parse reads a patch text.
type Options struct {
	// Into is what the patch goes into.
	Into Into
	// Type is the type the config gives; 0: each document's shape decides
	// (a list is a JSON patch, a map as Into says).
	Type Type
	// Default makes the patch fill only what is missing (mode: default).
	Default bool
	// Check, when set, checks each document further, as the caller needs
	// it (a JSON patch into a resource needs a target); its errors name
	// the document as Parse's own do.
	Check func(*Doc) error
}

// Doc is one patch document, checked for all that can be known before it
// meets what it patches.
type Doc struct {
	// Type is the document's type: the config's, or its shape's.
	Type Type
	// Node is the document as written.
	Node *yaml.RNode
	// Ops are a JSON patch's operations.
	Ops *jsonpatch.Ops
	// Default says the patch only fills what is missing (mode: default).
	Default bool
	// Deletes says a strategic patch into a resource deletes it: its root
	// is $patch: delete.
	Deletes bool
	// merge is a merge patch as RFC 7386 applies it (not for a default).
	merge *jsonpatch.MergePatch
	// config is an apply patch: an apply configuration.
	config *apply.Patch
}

// Parse reads a patch text into its documents: one, or for a resource a
// stream of them. Each gets its type and is checked for its shape and the
// rules of mode: default. A text without a document is ErrEmpty; a YAML
// syntax error is yaml.v3's, for internal/yamlerr to place.
func Parse(text string, o Options) ([]*Doc, error) {
	in, ok := intos[o.Into]
	if !ok {
		return nil, fmt.Errorf("patch.Parse: Options.Into is not set")
	}
	if o.Type != 0 && !in.allows(o.Type) {
		return nil, fmt.Errorf("type: %s is not a type %s can be", o.Type, in.what)
	}
	nodes, err := yamlstream.Split([]byte(text))
	switch {
	case err != nil:
		return nil, err
	case len(nodes) == 0:
		return nil, ErrEmpty
	case len(nodes) > 1 && !in.stream:
		return nil, fmt.Errorf("%s is one document; this one has %d", in.what, len(nodes))
	}
	docs := make([]*Doc, 0, len(nodes))
	for i, n := range nodes {
		d, err := parseDoc(yaml.NewRNode(n), in, o)
		if err == nil && o.Check != nil {
			err = o.Check(d)
		}
		if err != nil {
			if len(nodes) > 1 {
				return nil, fmt.Errorf("document %d: %w", i, err)
			}
			return nil, err
		}
		docs = append(docs, d)
	}
	return docs, nil
}

func parseDoc(n *yaml.RNode, in intoInfo, o Options) (*Doc, error) {
	t, err := typeOf(n.YNode(), in, o.Type)
	if err != nil {
		return nil, err
	}
	if err := inherit.Check(n.YNode()); err != nil {
		// yaml.v3 reads `<<: 0` into nodes; every reader of the result
		// refuses it, so the merge would write YAML nobody can read
		return nil, fmt.Errorf("the patch, %w (YAML's merge key; to set a key named <<, quote it: \"<<\")", err)
	}
	if dup := dupkeys.Find(n.YNode()); len(dup) > 0 {
		// Every type: readers keep one of the two values, and which one
		// differs (JSON the last, YAML none), so the patch means nothing sure.
		return nil, errors.New(dup[0].MessageOf("the patch"))
	}
	d := &Doc{Type: t, Node: n, Default: o.Default}
	if err := d.defaults(in); err != nil {
		return nil, err
	}
	switch {
	case t == JSON:
		if d.Ops, err = jsonpatch.ParseOps(n); err != nil {
			return nil, fmt.Errorf("JSON patch: %w", err)
		}
	case t == Merge && !d.Default:
		if d.merge, err = jsonpatch.ParseMergePatch(n); err != nil {
			return nil, fmt.Errorf("merge patch: %w", err)
		}
	case t == Apply:
		if d.config, err = apply.ParsePatch(n); err != nil {
			return nil, fmt.Errorf("apply patch: %w", err)
		}
	case t == Strategic && smp.IsDeleteDirective(n):
		switch {
		case in.noDelete != "":
			return nil, errors.New(in.noDelete)
		case d.Default:
			return nil, fmt.Errorf("mode: default fills what %s lacks; $patch: delete would delete it", in.lacks)
		}
		d.Deletes = true
	}
	return d, nil
}

// typeOf settles a document's type: the config's (of which the document
// must have the shape), or the one its shape says.
func typeOf(n *yaml.Node, in intoInfo, given Type) (Type, error) {
	if given != 0 {
		return given, checkShape(n, given)
	}
	t := in.mapType
	switch n.Kind {
	case yaml.SequenceNode:
		t = JSON
	case yaml.MappingNode:
	default:
		return 0, fmt.Errorf("%s, got %s", in.shape, got(n))
	}
	if !in.allows(t) {
		return 0, errors.New(in.shape)
	}
	return t, nil
}

// checkShape says whether a document has the shape of its type: a list for
// a JSON patch, a map for the others.
func checkShape(n *yaml.Node, t Type) error {
	i, want := types[t], yaml.MappingNode
	if i.list {
		want = yaml.SequenceNode
	}
	if n.Kind == want {
		return nil
	}
	msg := fmt.Sprintf("a %s is %s, got %s", i.words, shapes[want], got(n))
	if n.Kind == yaml.SequenceNode {
		msg += fmt.Sprintf(" (a list of operations is a %s: type %s or %s)", JSON.Words(), JSON, JSON.Short())
	}
	return errors.New(msg)
}

// shapes names the shapes of patch documents.
var shapes = map[yaml.Kind]string{yaml.MappingNode: "a map", yaml.SequenceNode: "a list of operations"}

// got says what a document is, for messages: a map, a list, or the
// scalar as written.
func got(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return "a list"
	}
	if s, ok := shapes[n.Kind]; ok {
		return s
	}
	return fmt.Sprintf("%q", strings.TrimSpace(yaml.NewRNode(n).MustString()))
}

// defaults applies the rules of mode: default: the types without a
// default mode are refused, and a default merge patch, which merges
// without a schema (RFC 7386 knows no list merges), is checked now: its
// errors are known whatever it meets.
func (d *Doc) defaults(in intoInfo) error {
	if !d.Default {
		return nil
	}
	if why := types[d.Type].noDefault; why != "" {
		return fmt.Errorf("mode: default fills what %s lacks; %s, so it has no default mode (%s)", in.lacks, why, in.useInstead)
	}
	if d.Type == Merge {
		return d.Validate(Types{}, nil)
	}
	return nil
}
