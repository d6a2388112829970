package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// benchInput is a ResourceList of 10,000 resources: 3,000 ConfigMaps each
// holding a JSON document, and 7,000 Deployments, each referring to one of
// them. The config merges into every ConfigMap (mergeValues on the JSON,
// one plain key), so each is renamed and its references follow.
func benchInput() []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm-%d
    namespace: ns-%d
  data:
    mode: slow
    config.json: |-
      {
        "server": {"port": 8080, "host": "svc-%d"},
        "features": ["a", "b"],
        "limits": {"cpu": "100m", "memory": "128Mi"}
      }
`, i, i%50, i)
	}
	for i := 0; i < 7000; i++ {
		fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%d
    namespace: ns-%d
    labels: {app: app-%d}
  spec:
    replicas: 2
    selector:
      matchLabels: {app: app-%d}
    template:
      metadata:
        labels: {app: app-%d}
      spec:
        containers:
        - name: app
          image: registry.example.com/app:%d
          envFrom:
          - configMapRef:
              name: cm-%d
          ports:
          - containerPort: 8080
`, i, i%50, i, i, i, i, i%3000)
	}
	b.WriteString("functionConfig:\n  apiVersion: fn.patchwork.dev/v1alpha1\n  kind: MergeValuesGenerator\n  metadata:\n    name: bench\n  configMapGenerator:\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, `  - name: cm-%d
    namespace: ns-%d
    behavior: merge
    mergeValues: [{key: config.json, format: json}]
    literals:
    - mode=fast
    - 'config.json={"server": {"host": "svc-%d.prod"}, "limits": {"cpu": null}}'
`, i, i%50, i)
	}
	return []byte(b.String())
}

// BenchmarkMerge3000Of10000 merges into 3,000 ConfigMaps of a 10,000-resource
// list beside the identity pass (target: at most 1.5 times it).
func BenchmarkMerge3000Of10000(b *testing.B) {
	in := benchInput()
	// Check once that the run really merges and renames.
	out, o, err := fnrun.RunBytes(Function, in)
	if err != nil || o.Failed {
		b.Fatal(err, o.Results)
	}
	items, _, _ := strings.Cut(string(out), "functionConfig:")
	if !strings.Contains(items, "name: cm-0-") || strings.Contains(items, "name: cm-0\n") || !strings.Contains(items, "svc-0.prod") {
		b.Fatal("the merge did not happen")
	}
	fnruntest.BesideIdentity(b, Function, in)
}
