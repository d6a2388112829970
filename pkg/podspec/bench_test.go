package podspec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
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
// the identity pass (target: at most 1.5 times it).
func BenchmarkPodSpecPatch(b *testing.B) {
	fnruntest.BesideIdentity(b, Function, benchList(10000))
}

// corpusConfig gives every workload of the corpus of real manifests a
// sidecar and a volume.
const corpusConfig = `apiVersion: fn.patchwork.dev/v1alpha1
kind: PodSpecPatch
metadata:
  name: all-workloads
patchesPodSpec:
- patch: |
    containers:
    - name: envoy
      image: envoyproxy/envoy:v1.30
    volumes:
    - name: envoy-config
      configMap:
        name: envoy
`

// BenchmarkPodSpecPatchCorpus: a sidecar into every workload of real
// manifests as kpt sends them (20 copies of the corpus: 2,677 items,
// 6.6 MB), beside the identity pass (target: at most 0.5 times kyaml's in
// CPU and peak RSS). Skipped without the corpus (fnruntest.CorpusDir).
func BenchmarkPodSpecPatchCorpus(b *testing.B) {
	fnruntest.BesideIdentity(b, Function, fnruntest.CorpusList(b, 20, corpusConfig))
}

// BenchmarkPodSpecPatchManifests: the same over keda's and metrics-server's
// manifests (kustomize bases, overlays and CRDs; twenty copies, the CRDs
// once: about 1,170 items, 1.8 MB),
// which resourcelist.py leaves out (target: at most 0.5 times kyaml's in
// CPU and peak RSS).
func BenchmarkPodSpecPatchManifests(b *testing.B) {
	fnruntest.BesideIdentity(b, Function, fnruntest.ManifestList(b, 20, corpusConfig, "keda", "metrics-server"))
}

// BenchmarkPodSpecPatchCorpusChecks is BenchmarkPodSpecPatchCorpus with
// validate: off, the default (validate: warn) and explain: true, each alone
// (as multi-patch's BenchmarkMultiPatchCorpusChecks).
func BenchmarkPodSpecPatchCorpusChecks(b *testing.B) {
	fnruntest.CorpusChecks(b, Function, corpusConfig, "patchesPodSpec:\n")
}

func TestBenchListIsPatched(t *testing.T) {
	out, o, err := fnrun.RunBytes(Function, benchList(30))
	if err != nil || o.Failed || len(o.Results) != o.Summaries {
		t.Fatal(err, o.Results)
	}
	items := string(out)[:strings.Index(string(out), "functionConfig:")]
	if got := strings.Count(items, "- name: envoy\n"); got != 10 {
		t.Fatalf("%d sidecars injected, want 10", got)
	}
}
