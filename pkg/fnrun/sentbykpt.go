package fnrun

import (
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Where a function's results are shown depends on the client:
//
//   - kpt (fn eval, fn render) prints the results of the ResourceList, and
//     the function's stderr too, under "Results:" and "Stderr:", whether
//     the function passed or failed;
//   - kustomize prints only the function's stderr (results are dropped);
//   - standalone there is no ResourceList, so stderr it is.
//
// The one line per config entry a successful run reports (Summarize) is
// left off stderr under kustomize: a line per entry on every build would
// bury the warnings there.
//
// So the results go to stderr unless kpt sent the ResourceList; then they
// are shown once, as results. What tells kpt apart: it records each
// resource's sequence indentation in internal.config.kubernetes.io/seqindent
// on everything it reads from files, the items and the --fn-config or
// configPath config alike; kustomize never sets it. The one kpt run without
// it is kpt fn eval on an empty package with no config file (`-- k=v`),
// where the messages then appear twice, as before.
func sentByKpt(items []*yaml.RNode, config *yaml.RNode) bool {
	if hasAnnotation(config, kioutil.SeqIndentAnnotation) {
		return true
	}
	for _, it := range items {
		if hasAnnotation(it, kioutil.SeqIndentAnnotation) {
			return true
		}
	}
	return false
}

// hasAnnotation reads an annotation without kyaml's getters, which panic
// on malformed metadata.
func hasAnnotation(n *yaml.RNode, key string) bool {
	if n == nil {
		return false
	}
	y := n.YNode()
	if y.Kind == yaml.DocumentNode && len(y.Content) > 0 {
		y = y.Content[0]
	}
	for _, k := range []string{"metadata", "annotations", key} {
		if y == nil || y.Kind != yaml.MappingNode {
			return false
		}
		y = yamltree.Lookup(y, k)
	}
	return y != nil
}
