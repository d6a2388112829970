package namerefs

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// Target is the renamed resource.
type Target struct {
	Kind      string // "ConfigMap", "Secret", "ServiceAccount", ...
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

// podRefs are the paths within a pod spec that refer to each kind; "[]"
// steps into every element of a list, "*containers" into containers,
// initContainers and ephemeralContainers.
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
	"ServiceAccount":        {{"serviceAccountName"}},
	"PersistentVolumeClaim": {{"volumes", "[]", "persistentVolumeClaim", "claimName"}},
	"PriorityClass":         {{"priorityClassName"}},
}

var containerLists = []string{"containers", "initContainers", "ephemeralContainers"}

// rule is one referring field outside pod specs.
type rule struct {
	referrer string   // the referring kind
	path     []string // to the name; "[]" steps into every element
	// kindField, when set, is a field beside the name that must hold the
	// referred kind (roleRef.kind, subjects[].kind, scaleTargetRef.kind).
	kindField string
	// nsField, when set, is a field beside the name giving the referred
	// resource's namespace (subjects[].namespace, service.namespace).
	nsField string
	// nsPath, when set, is the referred namespace's path from the root.
	nsPath []string
}

// rules lists, by referred kind, the fields outside pod specs.
var rules = map[string][]rule{
	"ConfigMap": {
		{referrer: "Ingress", path: []string{"metadata", "annotations", "nginx.ingress.kubernetes.io/fastcgi-params-configmap"}},
		{referrer: "Node", path: []string{"spec", "configSource", "configMap", "name"}, nsPath: []string{"spec", "configSource", "configMap", "namespace"}},
	},
	"Secret": {
		{referrer: "Ingress", path: []string{"spec", "tls", "[]", "secretName"}},
		{referrer: "Ingress", path: []string{"metadata", "annotations", "ingress.kubernetes.io/auth-secret"}},
		{referrer: "Ingress", path: []string{"metadata", "annotations", "nginx.ingress.kubernetes.io/auth-secret"}},
		{referrer: "Ingress", path: []string{"metadata", "annotations", "nginx.ingress.kubernetes.io/auth-tls-secret"}},
		{referrer: "ServiceAccount", path: []string{"imagePullSecrets", "[]", "name"}},
		{referrer: "ServiceAccount", path: []string{"secrets", "[]", "name"}, nsField: "namespace"},
		{referrer: "StorageClass", path: []string{"parameters", "secretName"}},
		{referrer: "StorageClass", path: []string{"parameters", "adminSecretName"}},
		{referrer: "StorageClass", path: []string{"parameters", "userSecretName"}},
		{referrer: "StorageClass", path: []string{"parameters", "secretRef"}},
		{referrer: "PersistentVolume", path: []string{"spec", "azureFile", "secretName"}, nsPath: []string{"spec", "azureFile", "secretNamespace"}},
	},
	"Service": {
		{referrer: "StatefulSet", path: []string{"spec", "serviceName"}},
		{referrer: "Ingress", path: []string{"spec", "rules", "[]", "http", "paths", "[]", "backend", "serviceName"}},
		{referrer: "Ingress", path: []string{"spec", "rules", "[]", "http", "paths", "[]", "backend", "service", "name"}},
		{referrer: "Ingress", path: []string{"spec", "backend", "serviceName"}},
		{referrer: "Ingress", path: []string{"spec", "defaultBackend", "service", "name"}},
		{referrer: "APIService", path: []string{"spec", "service", "name"}, nsField: "namespace"},
		{referrer: "ValidatingWebhookConfiguration", path: []string{"webhooks", "[]", "clientConfig", "service", "name"}, nsField: "namespace"},
		{referrer: "MutatingWebhookConfiguration", path: []string{"webhooks", "[]", "clientConfig", "service", "name"}, nsField: "namespace"},
	},
	"Role": {
		{referrer: "RoleBinding", path: []string{"roleRef", "name"}, kindField: "kind"},
	},
	"ClusterRole": {
		{referrer: "RoleBinding", path: []string{"roleRef", "name"}, kindField: "kind"},
		{referrer: "ClusterRoleBinding", path: []string{"roleRef", "name"}, kindField: "kind"},
	},
	"ServiceAccount": {
		{referrer: "RoleBinding", path: []string{"subjects", "[]", "name"}, kindField: "kind", nsField: "namespace"},
		{referrer: "ClusterRoleBinding", path: []string{"subjects", "[]", "name"}, kindField: "kind", nsField: "namespace"},
	},
	"PersistentVolume": {
		{referrer: "PersistentVolumeClaim", path: []string{"spec", "volumeName"}},
	},
	"StorageClass": {
		{referrer: "PersistentVolume", path: []string{"spec", "storageClassName"}},
		{referrer: "PersistentVolumeClaim", path: []string{"spec", "storageClassName"}},
		{referrer: "StatefulSet", path: []string{"spec", "volumeClaimTemplates", "[]", "spec", "storageClassName"}},
	},
	"IngressClass": {
		{referrer: "Ingress", path: []string{"spec", "ingressClassName"}},
	},
	"ValidatingAdmissionPolicy": {
		{referrer: "ValidatingAdmissionPolicyBinding", path: []string{"spec", "policyName"}},
	},
}

func init() {
	// An HorizontalPodAutoscaler follows the workload it scales.
	for _, k := range []string{"Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"} {
		rules[k] = append(rules[k], rule{referrer: "HorizontalPodAutoscaler", path: []string{"spec", "scaleTargetRef", "name"}, kindField: "kind"})
	}
}

// resourceNamesOf are the kinds a Role or ClusterRole names in
// rules[].resourceNames, with the resource the rule must be about.
var resourceNamesOf = map[string]string{"ConfigMap": "configmaps", "Secret": "secrets", "PersistentVolume": "persistentvolumes"}

// clusterScoped kinds: as referrers they may point into any namespace; as
// referred resources, their references are found whatever the referrer's
// namespace.
var clusterScoped = map[string]bool{
	"Node": true, "StorageClass": true, "PersistentVolume": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"APIService": true, "ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true,
	"PriorityClass": true, "IngressClass": true, "ValidatingAdmissionPolicy": true,
	"ValidatingAdmissionPolicyBinding": true, "Namespace": true,
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
				if clusterScoped[kind] {
					ns = anyNamespace
				}
				r := ref{kind, ns, v.Value}
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

// collect calls fn for each referring field of it, with the referred kind
// and namespace (anyNamespace when any): in its pod template, by the
// kind-specific rules, and in a Role's resourceNames.
func collect(it *yaml.RNode, fn func(kind, ns string, v *yaml.Node)) {
	kind := it.GetKind()
	ns := normNS(it.GetNamespace())
	if clusterScoped[kind] {
		ns = anyNamespace
	}
	root := it.YNode()
	if spec := podSpecOf(it, kind); spec != nil {
		for target, paths := range podRefs {
			for _, p := range paths {
				walkPod(spec, p, func(v *yaml.Node) { fn(target, ns, v) })
			}
		}
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
		if n := get(root, r.nsPath...); n != nil && n.Value != "" {
			ns = normNS(n.Value)
		}
	}
	parentPath, field := r.path[:len(r.path)-1], r.path[len(r.path)-1]
	walk(root, parentPath, func(parent *yaml.Node) {
		if r.kindField != "" {
			if k := get(parent, r.kindField); k == nil || k.Value != target {
				return
			}
		}
		elemNS := ns
		if r.nsField != "" {
			if n := get(parent, r.nsField); n != nil && n.Value != "" {
				elemNS = normNS(n.Value)
			}
		}
		if v := get(parent, field); v != nil {
			fn(target, elemNS, v)
		}
	})
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
