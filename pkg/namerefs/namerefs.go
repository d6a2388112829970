package namerefs

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Target is the renamed resource.
type Target struct {
	Kind      string // "ConfigMap", "Secret", "ServiceAccount", ...
	Namespace string
	Old, New  string
}

// anyNamespace marks a reference that may point into any namespace.
const anyNamespace = "*"

type ref struct {
	kind, namespace, name string
}

// Index holds, for one pass over the items, every field that refers to
// another resource by name, by the kind, namespace and name it refers to.
type Index struct {
	refs map[ref][]*yaml.Node
}

// NewIndex reads every referring field of items once. The index points
// into the items: build it again after edits that replace their nodes.
func NewIndex(items []*yaml.RNode) *Index {
	x := &Index{refs: map[ref][]*yaml.Node{}}
	for _, it := range items {
		collect(it, func(kind, ns string, v *yaml.Node) {
			if v.Kind == yaml.ScalarNode && v.Value != "" {
				r := ref{kind, scoped(kind, ns), v.Value}
				x.refs[r] = append(x.refs[r], v)
			}
		})
	}
	return x
}

// Rename makes every reference to t.Old point to t.New, and returns how
// many fields changed.
func (x *Index) Rename(t Target) int {
	if t.Old == t.New {
		return 0
	}
	n := 0
	for _, ns := range []string{normNS(t.Namespace), anyNamespace} {
		from := ref{t.Kind, ns, t.Old}
		for _, v := range x.refs[from] {
			if v.Value == t.Old {
				v.Value = t.New
				n++
			}
		}
		to := ref{t.Kind, ns, t.New}
		x.refs[to] = append(x.refs[to], x.refs[from]...)
		delete(x.refs, from)
	}
	return n
}

func normNS(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}

// scoped is the namespace of a reference from or to a resource of kind in
// ns: any, when the kind is cluster-scoped.
func scoped(kind, ns string) string {
	if clusterScoped[kind] {
		return anyNamespace
	}
	return ns
}
