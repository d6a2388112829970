package schema

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// Kind is a kind at one version, as a resource names it: "apps/v1",
// "Deployment".
type Kind struct{ APIVersion, Kind string }

// Group is the kind's API group ("" for the core group).
func (k Kind) Group() string { return groupOf(k.APIVersion) }

// KindsDefined lists the kinds a schema document defines, as WithCRDs and
// WithOpenAPI read them: a CustomResourceDefinition's kind at each served
// version, or the kinds of an OpenAPI document's definitions
// (x-kubernetes-group-version-kind). Any other document, or a CRD
// without its names, defines none. Whether a run's resources are of those
// kinds tells a schema file that applies to nothing (a CRD for
// ci.example.org where the resources are ci.example.com).
func KindsDefined(doc *yaml.Node) []Kind {
	doc = yamltree.Resolve(doc)
	if IsCRD(yaml.NewRNode(doc)) {
		return crdKindNames(doc)
	}
	defs, _, ok := openAPIDefinitions(doc)
	if !ok || defs.Kind != yaml.MappingNode {
		return nil
	}
	var out []Kind
	for i := 1; i < len(defs.Content); i += 2 {
		for _, k := range groupVersionKinds(yamltree.Resolve(defs.Content[i])) {
			out = append(out, Kind{k.apiVersion, k.kind})
		}
	}
	return out
}

// crdKindNames are the kinds a CRD defines, by its names alone.
func crdKindNames(crd *yaml.Node) []Kind {
	group, kind, versions, err := crdNames(crd)
	if err != nil {
		return nil
	}
	var out []Kind
	for _, v := range versions {
		if v = yamltree.Resolve(v); served(v) {
			if name := scalar(field(v, "name")); name != "" {
				out = append(out, Kind{group + "/" + name, kind})
			}
		}
	}
	return out
}
