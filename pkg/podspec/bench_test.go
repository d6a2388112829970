package podspec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// benchList: n Deployments, a third of them annotated for injection, and a
// config injecting an Envoy sidecar with its volume.
func benchList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < n; i++ {
		inject := "false"
		if i%3 == 0 {
			inject = "true"
		}
		fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%[1]d
    namespace: ns-%[2]d
    annotations:
      sidecar.example.com/inject: "%[3]s"
      internal.config.kubernetes.io/path: apps/app-%[1]d.yaml
  spec:
    replicas: 2
    template:
      metadata:
        labels:
          app: app-%[1]d
      spec:
        containers:
        - name: app
          image: example/app:%[1]d
          ports:
          - containerPort: 8080
        volumes:
        - name: data
          emptyDir: {}
`, i, i%7, inject)
	}
	b.WriteString(`functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: PodSpecPatch
  metadata:
    name: bench
  patchesPodSpec:
  - matchAnnotations:
      sidecar.example.com/inject: "true"
    patch: |
      containers:
      - name: envoy
        image: envoyproxy/envoy:v1.30
        ports:
        - containerPort: 15001
      volumes:
      - name: envoy-config
        configMap:
          name: envoy
`)
	return []byte(b.String())
}

// BenchmarkPodSpecPatch: injection into a third of 10,000 workloads, beside
// the identity pass (target ≤ 1.5×).
func BenchmarkPodSpecPatch(b *testing.B) {
	in := benchList(10000)
	identity := fnrun.Identity
	identity.Kinds = Function.Kinds
	for _, f := range []fnrun.Function{identity, Function} {
		b.Run(f.Name+"/workloads=10000", func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for i := 0; i < b.N; i++ {
				if _, o, err := fnrun.RunBytes(f, in); err != nil || o.Failed {
					b.Fatal(err, o.Results)
				}
			}
		})
	}
}

func TestBenchListIsPatched(t *testing.T) {
	out, o, err := fnrun.RunBytes(Function, benchList(30))
	if err != nil || o.Failed || len(o.Results) != 0 {
		t.Fatal(err, o.Results)
	}
	items := string(out)[:strings.Index(string(out), "functionConfig:")]
	if got := strings.Count(items, "- name: envoy\n"); got != 10 {
		t.Fatalf("%d sidecars injected, want 10", got)
	}
}
