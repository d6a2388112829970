package namerefs

// kustomize's name-reference rules: which fields of which kinds refer to
// a resource of another kind by its name.

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
