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
	segs, declared, known := l.pathOf([2]string{group, r.GetKind()})
	n, err := r.Pipe(yaml.Lookup(segs...))
	if err != nil || n == nil || n.YNode().Kind != yaml.MappingNode {
		if declared {
			return nil, "", strings.Join(segs, ".")
		}
		return nil, "", ""
	}
	if _, ok := listField(n, "containers"); !known && !ok {
		return nil, "", ""
	}
	return n, strings.Join(segs, "."), ""
}

// pathOf is where the PodSpec of the kind key (group and kind) is looked
// for: the path podSpecPaths declares for the kind in that group or in any
// group (declared), the built-in workload's (known), or else the common
// shape.
func (l *locator) pathOf(key [2]string) (segs []string, declared, known bool) {
	if segs, ok := l.custom[key]; ok {
		return segs, true, true
	}
	if segs, ok := l.anyGroup[key[1]]; ok {
		return segs, true, true
	}
	if segs, ok := builtinPaths[key]; ok {
		return segs, false, true
	}
	return commonShape, false, false
}

// listField is the elements of n's field name; ok is false when there is
// no such field or it is not a list.
func listField(n *yaml.RNode, name string) (elements []*yaml.Node, ok bool) {
	f := n.Field(name)
	if f == nil || f.Value.YNode().Kind != yaml.SequenceNode {
		return nil, false
	}
	return f.Value.YNode().Content, true
}
