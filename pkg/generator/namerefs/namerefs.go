// Package namerefs finds the fields that refer to a ConfigMap or a Secret
// by name, so that a generator that renames one (hash suffix) can make them
// follow, as kustomize's name reference transformer does.
//
// The fields are those kustomize v5.8.2 lists for ConfigMap and Secret
// referrals (its namereference config), in the pod templates of Pod,
// PodTemplate, Deployment, ReplicaSet, DaemonSet, StatefulSet, Job,
// CronJob and Knative Service, plus Ingress, ServiceAccount, StorageClass,
// PersistentVolume, Node, Role and ClusterRole. Beyond kustomize's list:
// ReplicationController pod templates, ephemeral containers, a
// ServiceAccount's secrets, and Role/ClusterRole resourceNames only in rules
// about configmaps or secrets.
package namerefs

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Target is the renamed resource.
type Target struct {
	Kind      string // "ConfigMap" or "Secret"
	Namespace string
	Old, New  string
}

// podSpecPaths are where each kind keeps its pod spec.
var podSpecPaths = map[string][]string{
	"Pod":                   {"spec"},
	"PodTemplate":           {"template", "spec"},
	"Deployment":            {"spec", "template", "spec"},
	"ReplicaSet":            {"spec", "template", "spec"},
	"ReplicationController": {"spec", "template", "spec"},
	"DaemonSet":             {"spec", "template", "spec"},
	"StatefulSet":           {"spec", "template", "spec"},
	"Job":                   {"spec", "template", "spec"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template", "spec"},
}

// Paths within a pod spec; "[]" steps into every element of a list.
var podRefs = map[string][][]string{
	"ConfigMap": {
		{"volumes", "[]", "configMap", "name"},
		{"volumes", "[]", "projected", "sources", "[]", "configMap", "name"},
		{"*containers", "[]", "env", "[]", "valueFrom", "configMapKeyRef", "name"},
		{"*containers", "[]", "envFrom", "[]", "configMapRef", "name"},
	},
	"Secret": {
		{"volumes", "[]", "secret", "secretName"},
		{"volumes", "[]", "projected", "sources", "[]", "secret", "name"},
		{"*containers", "[]", "env", "[]", "valueFrom", "secretKeyRef", "name"},
		{"*containers", "[]", "envFrom", "[]", "secretRef", "name"},
		{"imagePullSecrets", "[]", "name"},
	},
}

var containerLists = []string{"containers", "initContainers", "ephemeralContainers"}

// Other referrers, by kind, outside pod specs.
var otherRefs = map[string]map[string][][]string{
	"ConfigMap": {
		"Ingress": {{"metadata", "annotations", "nginx.ingress.kubernetes.io/fastcgi-params-configmap"}},
		"Node":    {{"spec", "configSource", "configMap", "name"}},
	},
	"Secret": {
		"Ingress": {
			{"spec", "tls", "[]", "secretName"},
			{"metadata", "annotations", "ingress.kubernetes.io/auth-secret"},
			{"metadata", "annotations", "nginx.ingress.kubernetes.io/auth-secret"},
			{"metadata", "annotations", "nginx.ingress.kubernetes.io/auth-tls-secret"},
		},
		"ServiceAccount": {{"imagePullSecrets", "[]", "name"}, {"secrets", "[]", "name"}},
		"StorageClass": {
			{"parameters", "secretName"}, {"parameters", "adminSecretName"},
			{"parameters", "userSecretName"}, {"parameters", "secretRef"},
		},
		"PersistentVolume": {{"spec", "azureFile", "secretName"}},
	},
}

// clusterScoped referrers may point into any namespace.
var clusterScoped = map[string]bool{"Node": true, "StorageClass": true, "PersistentVolume": true, "ClusterRole": true}

type ref struct {
	kind, namespace, name string
}

// Index holds, for one pass over the items, every field that refers to a
// ConfigMap or a Secret, by the name it refers to.
type Index struct {
	refs map[ref][]*yaml.Node
}

// NewIndex reads every referring field of items once.
func NewIndex(items []*yaml.RNode) *Index {
	x := &Index{refs: map[ref][]*yaml.Node{}}
	for _, it := range items {
		collect(it, func(kind, ns string, v *yaml.Node) {
			if v.Kind == yaml.ScalarNode && v.Value != "" {
				r := ref{kind, ns, v.Value}
				x.refs[r] = append(x.refs[r], v)
			}
		})
	}
	return x
}

// Rename makes every reference to t.Old point to t.New, and returns how
// many fields changed. A namespaced referrer follows only when it is in
// t's namespace; a cluster-scoped one when the reference names t's
// namespace or names none.
func (x *Index) Rename(t Target) int {
	if t.Old == t.New {
		return 0
	}
	n := 0
	for _, ns := range []string{normNS(t.Namespace), "*"} {
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

// collect calls fn for each referring field of it, with the referred kind
// and namespace ("*" when any).
func collect(it *yaml.RNode, fn func(kind, ns string, v *yaml.Node)) {
	kind := it.GetKind()
	ns := normNS(it.GetNamespace())
	if clusterScoped[kind] {
		ns = "*"
	}
	root := it.YNode()
	for _, target := range []string{"ConfigMap", "Secret"} {
		set := func(v *yaml.Node) { fn(target, ns, v) }
		if path, ok := podSpecPaths[kind]; ok {
			walkPodSpec(get(root, path...), target, set)
		}
		if kind == "Service" && strings.HasPrefix(it.GetApiVersion(), "serving.knative.dev/") {
			walkPodSpec(get(root, "spec", "template", "spec"), target, set)
		}
		for _, p := range otherRefs[target][kind] {
			refNS := ns
			switch kind {
			case "Node":
				if n := get(root, "spec", "configSource", "configMap", "namespace"); n != nil {
					refNS = normNS(n.Value)
				}
			case "PersistentVolume":
				if n := get(root, "spec", "azureFile", "secretNamespace"); n != nil {
					refNS = normNS(n.Value)
				}
			}
			walk(root, p, func(v *yaml.Node) { fn(target, refNS, v) })
		}
		if kind == "Role" || kind == "ClusterRole" {
			resource := strings.ToLower(target) + "s"
			walk(root, []string{"rules", "[]"}, func(rule *yaml.Node) {
				if listHas(get(rule, "resources"), resource) && listHas(get(rule, "apiGroups"), "") {
					walk(rule, []string{"resourceNames", "[]"}, set)
				}
			})
		}
	}
}

func walkPodSpec(spec *yaml.Node, kind string, set func(*yaml.Node)) {
	if spec == nil {
		return
	}
	for _, p := range podRefs[kind] {
		if p[0] == "*containers" {
			for _, c := range containerLists {
				walk(spec, append([]string{c}, p[1:]...), set)
			}
			continue
		}
		walk(spec, p, set)
	}
}

// get follows map fields.
func get(n *yaml.Node, path ...string) *yaml.Node {
	for _, f := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == f {
				next = n.Content[i+1]
			}
		}
		n = next
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
