package fnrun

import (
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/dupkeys"
)

// checkDuplicateKeys refuses the documents among docs (items, or the
// functionConfig) that hold a map giving one key twice (package dupkeys
// says why): an error for each, naming the resource, the map, the key and
// both lines.
func checkDuplicateKeys(config *yaml.RNode, docs []*yaml.RNode) error {
	var rs framework.Results
	for _, d := range docs {
		entry := ""
		if d == config {
			entry = "functionConfig"
		}
		rs = appendDuplicates(rs, d, entry)
	}
	if len(rs) > 0 {
		return rs
	}
	return nil
}

func appendDuplicates(rs framework.Results, res *yaml.RNode, entry string) framework.Results {
	for _, d := range dupkeys.Find(res.YNode()) {
		r := Errorf(entry, res, d.Path, "%s", d.Message())
		if entry != "" {
			r.ResourceRef = nil // the config is not a resource of the package
		}
		rs = append(rs, r)
	}
	return rs
}
