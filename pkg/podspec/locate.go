package podspec

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// builtinPaths says where the PodSpec of each built-in workload lives, by
// group and kind.
var builtinPaths = map[[2]string][]string{
	{"", "Pod"}:                   {"spec"},
	{"", "PodTemplate"}:           {"template", "spec"},
	{"", "ReplicationController"}: {"spec", "template", "spec"},
	{"apps", "Deployment"}:        {"spec", "template", "spec"},
	{"apps", "ReplicaSet"}:        {"spec", "template", "spec"},
	{"apps", "StatefulSet"}:       {"spec", "template", "spec"},
	{"apps", "DaemonSet"}:         {"spec", "template", "spec"},
	{"batch", "Job"}:              {"spec", "template", "spec"},
	{"batch", "CronJob"}:          {"spec", "jobTemplate", "spec", "template", "spec"},
}

// commonShape is where custom workloads (Argo Rollouts, OpenKruise,
// Knative...) usually keep their pod template.
var commonShape = []string{"spec", "template", "spec"}

// locator finds the PodSpec of a resource.
type locator struct {
	custom map[[2]string][]string
	// anyGroup holds the podSpecPaths given without a group: they apply to
	// the kind in every group.
	anyGroup map[string][]string
}

func newLocator(paths []PodSpecPath) *locator {
	l := &locator{custom: map[[2]string][]string{}, anyGroup: map[string][]string{}}
	for _, p := range paths {
		if p.Group == "" {
			l.anyGroup[p.Kind] = p.segments
			continue
		}
		l.custom[[2]string{p.Group, p.Kind}] = p.segments
	}
	return l
}

// find returns the resource's PodSpec and its field path, or nil when the
// resource has none. A built-in or declared workload must hold a map at its
// path; any other resource qualifies only with the common shape and a list
// of containers, so that nothing without a PodSpec is ever touched.
// missing is the podSpecPaths path declared for the resource's kind when
// nothing (or no map) is there: most likely a wrong path, worth a warning.
func (l *locator) find(r *yaml.RNode) (spec *yaml.RNode, path, missing string) {
	group, _ := selector.SplitAPIVersion(r.GetApiVersion())
	key := [2]string{group, r.GetKind()}
	segs, declared := l.custom[key]
	if !declared {
		segs, declared = l.anyGroup[key[1]]
	}
	known := declared
	if !known {
		segs, known = builtinPaths[key]
	}
	if !known {
		segs = commonShape
	}
	n, err := r.Pipe(yaml.Lookup(segs...))
	if err != nil || n == nil || n.YNode().Kind != yaml.MappingNode {
		if declared {
			return nil, "", strings.Join(segs, ".")
		}
		return nil, "", ""
	}
	if !known {
		c := n.Field("containers")
		if c == nil || c.Value.YNode().Kind != yaml.SequenceNode {
			return nil, "", ""
		}
	}
	return n, strings.Join(segs, "."), ""
}
