package namerefs

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// collect calls fn for each referring field of it, with the referred kind
// and namespace (anyNamespace when any): in its pod template, by the
// kind-specific rules, and in a Role's resourceNames.
func collect(it *yaml.RNode, fn func(kind, ns string, v *yaml.Node)) {
	kind := it.GetKind()
	ns := scoped(kind, normNS(it.GetNamespace()))
	root := it.YNode()
	if spec := podSpecOf(it, kind); spec != nil {
		collectPodRefs(spec, ns, fn)
	}
	for target, rs := range rules {
		for _, r := range rs {
			if r.referrer == kind {
				r.collect(root, target, ns, fn)
			}
		}
	}
	if kind == "Role" || kind == "ClusterRole" {
		collectResourceNames(root, ns, fn)
	}
}

// collectPodRefs calls fn for each referring field of a pod spec.
func collectPodRefs(spec *yaml.Node, ns string, fn func(kind, ns string, v *yaml.Node)) {
	for target, paths := range podRefs {
		for _, p := range paths {
			walkPod(spec, p, func(v *yaml.Node) { fn(target, ns, v) })
		}
	}
}

// podSpecOf is the PodSpec of a workload (nil for other kinds).
func podSpecOf(it *yaml.RNode, kind string) *yaml.Node {
	if kind == "Service" && strings.HasPrefix(it.GetApiVersion(), "serving.knative.dev/") {
		return get(it.YNode(), "spec", "template", "spec")
	}
	paths, ok := podSpecPaths[kind]
	if !ok {
		return nil
	}
	return get(it.YNode(), paths...)
}

// collect calls fn for each field the rule finds in root that refers to a
// target: the namespace is the referrer's, or the one the rule's fields
// name.
func (r rule) collect(root *yaml.Node, target, ns string, fn func(kind, ns string, v *yaml.Node)) {
	if r.nsPath != nil {
		ns = namedNS(get(root, r.nsPath...), ns)
	}
	parentPath, field := r.path[:len(r.path)-1], r.path[len(r.path)-1]
	walk(root, parentPath, func(parent *yaml.Node) {
		if !r.refersTo(parent, target) {
			return
		}
		if v := get(parent, field); v != nil {
			fn(target, r.namespace(parent, ns), v)
		}
	})
}

// refersTo reports whether the map holding the name refers to the target
// kind: its kindField, where the rule has one, says that kind.
func (r rule) refersTo(parent *yaml.Node, target string) bool {
	if r.kindField == "" {
		return true
	}
	k := get(parent, r.kindField)
	return k != nil && k.Value == target
}

// namespace is the referred resource's namespace: the one the map holding
// the name gives in nsField, where the rule has one, or ns.
func (r rule) namespace(parent *yaml.Node, ns string) string {
	if r.nsField == "" {
		return ns
	}
	return namedNS(get(parent, r.nsField), ns)
}

// namedNS is the namespace a field n names, or ns when it names none.
func namedNS(n *yaml.Node, ns string) string {
	if n != nil && n.Value != "" {
		return normNS(n.Value)
	}
	return ns
}

// collectResourceNames calls fn for the resourceNames of a Role's rules
// about a kind the name references follow (core group).
func collectResourceNames(root *yaml.Node, ns string, fn func(kind, ns string, v *yaml.Node)) {
	for target, resource := range resourceNamesOf {
		walk(root, []string{"rules", "[]"}, func(rule *yaml.Node) {
			if listHas(get(rule, "resources"), resource) && listHas(get(rule, "apiGroups"), "") {
				walk(rule, []string{"resourceNames", "[]"}, func(v *yaml.Node) { fn(target, ns, v) })
			}
		})
	}
}

func walkPod(spec *yaml.Node, p []string, set func(*yaml.Node)) {
	if p[0] == "*containers" {
		for _, c := range containerLists {
			walk(spec, append([]string{c}, p[1:]...), set)
		}
		return
	}
	walk(spec, p, set)
}

// get follows map fields. An alias is not followed: a rename must not
// change what its anchor holds elsewhere.
func get(n *yaml.Node, path ...string) *yaml.Node {
	for _, f := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		n = yamltree.Lookup(n, f)
	}
	return n
}

// walk calls fn on every node at path, "[]" standing for each element.
func walk(n *yaml.Node, path []string, fn func(*yaml.Node)) {
	if n == nil {
		return
	}
	if len(path) == 0 {
		fn(n)
		return
	}
	if path[0] == "[]" {
		if n.Kind == yaml.SequenceNode {
			for _, e := range n.Content {
				walk(e, path[1:], fn)
			}
		}
		return
	}
	walk(get(n, path[0]), path[1:], fn)
}

func listHas(list *yaml.Node, s string) bool {
	if list == nil || list.Kind != yaml.SequenceNode {
		return false
	}
	for _, e := range list.Content {
		if e.Value == s || e.Value == "*" {
			return true
		}
	}
	return false
}
