package multipatch

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// document is one patch document, ready to apply to any number of
// resources: package patch's, with what multi-patch adds.
type document struct {
	*patch.Doc
	// own selects the resource the document names itself, for a patch
	// without a target (kustomize's rule for strategic merge patches).
	own *selector.SetMatcher
	// touchesIdentity is set when the document may change apiVersion, kind
	// or metadata, so the selection index must be refreshed after it.
	touchesIdentity bool
}

// parseDocuments reads patch text into its documents (package patch), each
// knowing the resources it names when the entry has no target.
func parseDocuments(text string, typ patch.Type, targeted bool, reject []selector.Selector, fill bool) ([]*document, error) {
	var docs []*document
	_, err := patch.Parse(text, patch.Options{Into: patch.Resource, Type: typ, Default: fill, Check: func(p *patch.Doc) error {
		d, err := newDocument(p, targeted, reject)
		docs = append(docs, d)
		return err
	}})
	return docs, err
}

func newDocument(p *patch.Doc, targeted bool, reject []selector.Selector) (*document, error) {
	d := &document{Doc: p}
	if p.Type == patch.JSON {
		d.touchesIdentity = opsTouchIdentity(p.Node)
		if !targeted {
			return nil, fmt.Errorf("a JSON patch needs a target: it does not name the resources it applies to")
		}
		return d, nil
	}
	n := p.Node
	// a root $patch (replace) or $retainKeys may drop identity fields too
	d.touchesIdentity = n.Field("metadata") != nil || n.Field("kind") != nil || n.Field("apiVersion") != nil ||
		n.Field("$patch") != nil || n.Field("$retainKeys") != nil
	if !targeted {
		var err error
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
