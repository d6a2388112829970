package multipatch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Patch types, as written in the config.
const (
	typeSMP   = "StrategicMergePatch"
	typeJSON  = "JsonPatch"
	typeMerge = "MergePatch"
)

// document is one patch document, ready to apply to any number of resources.
type document struct {
	typ   string
	node  *yaml.RNode // SMP or merge patch
	ops   *jsonpatch.Ops
	merge *jsonpatch.MergePatch
	// deletes is a strategic patch whose root says $patch: delete.
	deletes bool
	// own selects the resource the document names itself, for a patch
	// without a target (kustomize's rule for strategic merge patches).
	own *selector.SetMatcher
	// touchesIdentity is set when the document may change apiVersion, kind
	// or metadata, so the selection index must be refreshed after it.
	touchesIdentity bool
	// fill says the entry's mode is default.
	fill bool
}

// parseDocuments splits patch text into documents and settles their type.
func parseDocuments(text, typ string, targeted bool, reject []selector.Selector, fill bool) ([]*document, error) {
	switch typ {
	case "", typeSMP, typeJSON, typeMerge:
	default:
		return nil, fmt.Errorf("type: unknown patch type %q (want %s, %s or %s)", typ, typeSMP, typeJSON, typeMerge)
	}
	nodes, err := splitYAML(text)
	if err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("the patch is empty")
	}
	var docs []*document
	for i, n := range nodes {
		d, err := parseDocument(n, typ, targeted, reject, fill)
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

func parseDocument(n *yaml.RNode, typ string, targeted bool, reject []selector.Selector, fill bool) (*document, error) {
	kind := n.YNode().Kind
	if typ == "" {
		switch kind {
		case yaml.SequenceNode:
			typ = typeJSON
		case yaml.MappingNode:
			typ = typeSMP
		default:
			return nil, fmt.Errorf("a patch is a map (strategic merge or merge patch) or a list of operations (JSON patch), got %q", strings.TrimSpace(n.MustString()))
		}
	}
	d := &document{typ: typ, fill: fill}
	var err error
	if fill && typ == typeJSON {
		return nil, fmt.Errorf("mode: default fills what a resource lacks; a JSON patch's operations say themselves what to do, so it has no default mode (use a strategic or merge patch)")
	}
	switch {
	case fill && typ == typeMerge:
		// A default merge patch merges without a schema (apply): its
		// errors are known now, whatever it meets.
		if err := smp.ValidateWith(n, nil, smp.Options{Default: true}); err != nil {
			return nil, err
		}
	case fill && smp.IsDeleteDirective(n):
		return nil, fmt.Errorf("mode: default fills what a resource lacks; $patch: delete would delete it")
	}
	switch typ {
	case typeJSON:
		if d.ops, err = jsonpatch.ParseOps(n); err != nil {
			return nil, fmt.Errorf("JSON patch: %w", err)
		}
		d.touchesIdentity = opsTouchIdentity(n)
		if !targeted {
			return nil, fmt.Errorf("a JSON patch needs a target: it does not name the resources it applies to")
		}
		return d, nil
	case typeMerge:
		if d.merge, err = jsonpatch.ParseMergePatch(n); err != nil {
			return nil, fmt.Errorf("merge patch: %w", err)
		}
	case typeSMP:
		if kind != yaml.MappingNode {
			return nil, fmt.Errorf("a strategic merge patch is a map, got a list (a list of operations is a JsonPatch)")
		}
		// Whether the patch is valid depends on the schema of the kind it
		// meets; the applier checks it once per kind.
		d.deletes = smp.IsDeleteDirective(n)
	}
	d.node = n
	// a root $patch (replace) or $retainKeys may drop identity fields too
	d.touchesIdentity = n.Field("metadata") != nil || n.Field("kind") != nil || n.Field("apiVersion") != nil ||
		n.Field("$patch") != nil || n.Field("$retainKeys") != nil
	if !targeted {
		if d.own, err = ownSelector(n, reject); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// ownSelector selects the resource a patch names by its apiVersion, kind,
// name and namespace, less what the entry rejects. A patch without a namespace names a resource without
// one or in "default", as kustomize matches it.
func ownSelector(n *yaml.RNode, reject []selector.Selector) (*selector.SetMatcher, error) {
	kind, name := n.GetKind(), n.GetName()
	if kind == "" || name == "" || n.GetApiVersion() == "" {
		return nil, fmt.Errorf("a patch without a target must name its resource (apiVersion, kind, metadata.name); or give it a target")
	}
	group, version := selector.SplitAPIVersion(n.GetApiVersion())
	ns := n.GetNamespace()
	if ns == "" {
		ns = "default"
	}
	s := selector.Selector{
		Kind:      regexp.QuoteMeta(kind),
		Name:      regexp.QuoteMeta(name),
		Namespace: regexp.QuoteMeta(ns),
		Group:     regexp.QuoteMeta(group),
	}
	if version != "" {
		s.Version = regexp.QuoteMeta(version)
	}
	if group == "" {
		// the core group is the empty string: match it exactly
		s.Group = "()"
	}
	return selector.CompileSet(selector.Set{Target: &s, Reject: reject})
}

func opsTouchIdentity(ops *yaml.RNode) bool {
	for _, op := range ops.YNode().Content {
		for i := 0; i+1 < len(op.Content); i += 2 {
			k, v := op.Content[i].Value, op.Content[i+1].Value
			if (k == "path" || k == "from") && (v == "" || v == "/" ||
				strings.HasPrefix(v, "/metadata") || strings.HasPrefix(v, "/kind") || strings.HasPrefix(v, "/apiVersion")) {
				return true
			}
		}
	}
	return false
}

// splitYAML parses a stream of YAML documents, skipping empty ones.
func splitYAML(text string) ([]*yaml.RNode, error) {
	dec := yaml.NewDecoder(bytes.NewBufferString(text))
	var out []*yaml.RNode
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("parsing the patch: %v", err)
		}
		r := yaml.NewRNode(&n)
		if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
			r = yaml.NewRNode(n.Content[0])
		}
		if yaml.IsMissingOrNull(r) {
			continue
		}
		out = append(out, r)
	}
}

// apply applies the document to one resource. It returns true when the
// resource is to be removed, and for a strategic merge what became of the
// keyed list elements the patch names; for a default, what it filled.
func (d *document) apply(res *yaml.RNode, t *schema.Type) (bool, smp.Result, error) {
	switch {
	case d.typ == typeJSON:
		return false, smp.Result{}, d.ops.Apply(res)
	case d.typ == typeMerge && d.fill:
		// RFC 7386 knows no list merges: a default merge patch fills
		// without a schema.
		r, err := smp.MergeWith(res, d.node, nil, smp.Options{Default: true})
		return false, r, err
	case d.typ == typeMerge:
		return false, smp.Result{}, d.merge.Apply(res)
	case d.deletes:
		return true, smp.Result{}, nil
	}
	r, err := smp.MergeWith(res, d.node, t, smp.Options{Track: true, Default: d.fill})
	return false, r, err
}
