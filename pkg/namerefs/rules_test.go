package namerefs

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

// One case per kustomize name-reference rule (and our additions): the
// referrer follows a rename in its namespace, and only there.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  string
		target Target
		want   int    // fields renamed
		output string // must appear afterwards
	}{
		{"ServiceAccount from a pod spec", `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: a}
spec: {template: {spec: {serviceAccountName: sa}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, namespace: b}
spec: {template: {spec: {serviceAccountName: sa}}}
`, Target{"ServiceAccount", "a", "sa", "sa-1"}, 1, "serviceAccountName: sa-1"},
		{"ServiceAccount from RoleBinding subjects, namespace-aware", `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: a}
subjects:
- {kind: ServiceAccount, name: sa}
- {kind: ServiceAccount, name: sa, namespace: b}
- {kind: User, name: sa}
roleRef: {kind: Role, name: r}
`, Target{"ServiceAccount", "a", "sa", "sa-1"}, 1, "{kind: ServiceAccount, name: sa-1}"},
		{"ServiceAccount from ClusterRoleBinding subjects by their namespace", `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb}
subjects:
- {kind: ServiceAccount, name: sa, namespace: a}
- {kind: ServiceAccount, name: sa, namespace: b}
roleRef: {kind: ClusterRole, name: cr}
`, Target{"ServiceAccount", "b", "sa", "sa-1"}, 1, "{kind: ServiceAccount, name: sa-1, namespace: b}"},
		{"PersistentVolumeClaim from a pod spec", `
apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec: {jobTemplate: {spec: {template: {spec: {volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]}}}}}
`, Target{"PersistentVolumeClaim", "", "data", "data-1"}, 1, "claimName: data-1"},
		{"PriorityClass (cluster-scoped) from any namespace", `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a}
spec: {priorityClassName: high}
`, Target{"PriorityClass", "", "high", "high-1"}, 1, "priorityClassName: high-1"},
		{"Service from StatefulSet, Ingress (both APIs)", `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec: {serviceName: svc}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i}
spec:
  defaultBackend: {service: {name: svc}}
  rules:
  - http: {paths: [{backend: {service: {name: svc}}}, {backend: {serviceName: svc}}]}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i, namespace: other}
spec: {defaultBackend: {service: {name: svc}}}
`, Target{"Service", "default", "svc", "svc-1"}, 4, "serviceName: svc-1"},
		{"Service from webhooks and APIService by their namespace", `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: w}
webhooks:
- {name: a, clientConfig: {service: {name: hook, namespace: sys}}}
- {name: b, clientConfig: {service: {name: hook, namespace: other}}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: m}
webhooks:
- {name: a, clientConfig: {service: {name: hook, namespace: sys}}}
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1.example.com}
spec: {service: {name: hook, namespace: sys}}
`, Target{"Service", "sys", "hook", "hook-1"}, 3, "{name: b, clientConfig: {service: {name: hook, namespace: other}}}"},
		{"Role from RoleBinding of its namespace and kind", `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb2, namespace: a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: b}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}
`, Target{"Role", "a", "r", "r-1"}, 1, "kind: Role, name: r-1}"},
		{"ClusterRole from RoleBinding and ClusterRoleBinding", `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: rb, namespace: a}
roleRef: {kind: ClusterRole, name: cr}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: crb}
roleRef: {kind: ClusterRole, name: cr}
`, Target{"ClusterRole", "", "cr", "cr-1"}, 2, "name: cr-1"},
		{"PersistentVolume from PVC and ClusterRole resourceNames", `
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: a}
spec: {volumeName: pv}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cr}
rules:
- {apiGroups: [""], resources: [persistentvolumes], resourceNames: [pv]}
`, Target{"PersistentVolume", "", "pv", "pv-1"}, 2, "resourceNames: [pv-1]"},
		{"StorageClass from PV, PVC, volumeClaimTemplates", `
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv}
spec: {storageClassName: fast}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: a}
spec: {storageClassName: fast}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s, namespace: b}
spec: {volumeClaimTemplates: [{spec: {storageClassName: fast}}]}
`, Target{"StorageClass", "", "fast", "fast-1"}, 3, "storageClassName: fast-1"},
		{"IngressClass from Ingress", `
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i, namespace: a}
spec: {ingressClassName: nginx}
`, Target{"IngressClass", "", "nginx", "nginx-1"}, 1, "ingressClassName: nginx-1"},
		{"ValidatingAdmissionPolicy from its binding", `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: b}
spec: {policyName: p}
`, Target{"ValidatingAdmissionPolicy", "", "p", "p-1"}, 1, "policyName: p-1"},
		{"workload from HorizontalPodAutoscaler of its kind", `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h, namespace: a}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: h2, namespace: a}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: web}}
`, Target{"Deployment", "a", "web", "web-1"}, 1, "kind: Deployment, name: web-1}"},
		{"Secret from a ServiceAccount", `
apiVersion: v1
kind: ServiceAccount
metadata: {name: sa, namespace: a}
imagePullSecrets: [{name: pull}]
secrets: [{name: pull}]
`, Target{"Secret", "a", "pull", "pull-1"}, 2, "secrets: [{name: pull-1}]"},
		{"ConfigMap from a ReplicationController (beyond kustomize)", `
apiVersion: v1
kind: ReplicationController
metadata: {name: rc}
spec: {template: {spec: {volumes: [{name: v, configMap: {name: cm}}]}}}
`, Target{"ConfigMap", "", "cm", "cm-1"}, 1, "configMap: {name: cm-1}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, err := (&kio.ByteReader{Reader: strings.NewReader(tc.input), OmitReaderAnnotations: true}).Read()
			if err != nil {
				t.Fatal(err)
			}
			if n := NewIndex(items).Rename(tc.target); n != tc.want {
				t.Errorf("%d fields renamed, want %d", n, tc.want)
			}
			var out strings.Builder
			if err := (kio.ByteWriter{Writer: &out}).Write(items); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out.String(), tc.output) {
				t.Errorf("output lacks %q:\n%s", tc.output, out.String())
			}
		})
	}
}
