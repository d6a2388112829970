package namerefs

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

const input = `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: a}
spec:
  imagePullSecrets: [{name: s}]
  containers:
  - name: c
    env:
    - {name: X, valueFrom: {configMapKeyRef: {name: cm, key: k}}}
    - {name: Y, valueFrom: {secretKeyRef: {name: s, key: k}}}
    envFrom: [{configMapRef: {name: cm}}, {secretRef: {name: s}}]
  ephemeralContainers:
  - name: debug
    envFrom: [{configMapRef: {name: cm}}]
  volumes:
  - {name: v1, configMap: {name: cm}}
  - {name: v2, secret: {secretName: s}}
  - name: v3
    projected: {sources: [{configMap: {name: cm}}, {secret: {name: s}}]}
  - {name: v4, configMap: {name: cm-other}}
---
apiVersion: v1
kind: Pod
metadata: {name: elsewhere, namespace: b}
spec:
  volumes: [{name: v, configMap: {name: cm}}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: sc}
parameters: {secretName: s, adminSecretName: s}
---
apiVersion: v1
kind: Node
metadata: {name: n}
spec:
  configSource: {configMap: {name: cm, namespace: b, kubeletConfigKey: k}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cr}
rules:
- {apiGroups: [""], resources: [secrets], resourceNames: [s, other]}
- {apiGroups: [""], resources: [configmaps], resourceNames: [s]}
`

func TestRename(t *testing.T) {
	items, err := (&kio.ByteReader{Reader: strings.NewReader(input), OmitReaderAnnotations: true}).Read()
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex(items)
	if n := x.Rename(Target{Kind: "ConfigMap", Namespace: "a", Old: "cm", New: "cm-1"}); n != 5 {
		t.Errorf("ConfigMap: %d fields renamed, want 5 (Pod env, envFrom, ephemeral envFrom, volume, projected; not b's Pod, not the Node pointing into b)", n)
	}
	if n := x.Rename(Target{Kind: "Secret", Namespace: "a", Old: "s", New: "s-1"}); n != 8 {
		t.Errorf("Secret: %d fields renamed, want 8 (Pod imagePullSecrets, env, envFrom, volume, projected; StorageClass x2; ClusterRole secrets rule)", n)
	}
	// A second rename of the same resource finds the fields under the new name.
	if n := x.Rename(Target{Kind: "Secret", Namespace: "a", Old: "s-1", New: "s-2"}); n != 8 {
		t.Errorf("second rename: %d fields, want 8", n)
	}
	var out strings.Builder
	if err := (kio.ByteWriter{Writer: &out}).Write(items); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"name: cm-other", "configMap: {name: cm, namespace: b", "resourceNames: [s-2, other]", "resources: [configmaps], resourceNames: [s]"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "cm-1") != 5 || strings.Count(got, "s-2") != 8 {
		t.Errorf("unexpected counts in:\n%s", got)
	}
}
