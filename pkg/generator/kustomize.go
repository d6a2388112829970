package generator

import (
	"maps"
	"slices"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Annotations kustomize reads and writes.
const (
	// kustomize's hints on a generator function's output.
	kustomizeNeedsHash = "kustomize.config.k8s.io/needs-hash"
	kustomizeBehavior  = "kustomize.config.k8s.io/behavior"
	// kustomize's mark on resources its own generators made and that it
	// will hash at the end of the build.
	kustomizeWillHash = "internal.config.kubernetes.io/needsHashSuffix"
	localConfig       = "config.kubernetes.io/local-config"
)

// isKustomizeGenerator tells whether kustomize runs us from a
// kustomization's generators: it then passes nothing but a copy of the
// config.
func isKustomizeGenerator(req *fnrun.Request) bool {
	if len(req.Items) == 0 {
		return false
	}
	for _, it := range req.Items {
		if !isConfigCopy(it, req.Config) {
			return false
		}
	}
	return true
}

// isConfigCopy reports whether an item is the copy of the config kustomize
// passes a generator: marked local-config, read from no file (a kpt
// package's config file has a path).
func isConfigCopy(it, config *yaml.RNode) bool {
	a := it.GetAnnotations()
	return sameID(it, config) && a[localConfig] == "true" &&
		a["internal.config.kubernetes.io/path"] == "" && a["config.kubernetes.io/path"] == ""
}

// sameID reports whether two resources have one apiVersion, kind and name.
func sameID(a, b *yaml.RNode) bool {
	return a.GetApiVersion() == b.GetApiVersion() && a.GetKind() == b.GetKind() && a.GetName() == b.GetName()
}

// forKustomize writes the generated resource with kustomize's hints, for a
// kustomization's generators: kustomize hashes it and merges or replaces it
// into the base's resource itself.
func (r *run) forKustomize(e entry, behavior string, pairs []kv.Pair, formats valueRules) *framework.Result {
	if len(formats) > 0 {
		return fnrun.Errorf(e.where+".mergeValues[0]", nil, "",
			"under kustomize, a generator sees only its own config, not the resource to merge into: list this config under the kustomization's transformers:, not generators:")
	}
	res, err := build(e, pairs)
	if err != nil {
		return fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	ann := map[string]string{kustomizeBehavior: behavior}
	if !e.opts.DisableNameSuffixHash {
		ann[kustomizeNeedsHash] = "true"
	}
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		if err := setMetaKey(res, "annotations", k, ann[k]); err != nil {
			return fnrun.Errorf(e.where, res, "", "%v", err)
		}
	}
	r.req.Items = append(r.req.Items, res)
	r.watch.Created(e.where).DoneAs(res)
	r.done = "generated " + fnrun.Describe(res) + " for kustomize (" + behavior + ")"
	return nil
}
