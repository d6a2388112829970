package multipatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// benchList builds a ResourceList of n Deployments, each with a Service and
// a ConfigMap, labelled across 20 teams, and a config of 20 strategic
// patches, each selecting one team's Deployments by label.
func benchList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%[1]d
    namespace: ns-%[3]d
    labels:
      app: app-%[1]d
      team: team-%[2]d
    annotations:
      config.kubernetes.io/path: apps/app-%[1]d.yaml
      internal.config.kubernetes.io/path: apps/app-%[1]d.yaml
  spec:
    replicas: 2
    selector:
      matchLabels:
        app: app-%[1]d
    template:
      metadata:
        labels:
          app: app-%[1]d
      spec:
        containers:
        - name: app
          image: example/app:%[1]d # pinned
          ports:
          - containerPort: 8080
          env:
          - name: MODE
            value: fast
- apiVersion: v1
  kind: Service
  metadata:
    name: app-%[1]d
    namespace: ns-%[3]d
    labels:
      team: team-%[2]d
  spec:
    selector:
      app: app-%[1]d
    ports:
    - port: 80
      targetPort: 8080
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app-%[1]d
    namespace: ns-%[3]d
  data:
    mode: fast
`, i, i%20, i%7)
	}
	b.WriteString("functionConfig:\n  apiVersion: fn.patchwork.dev/v1alpha1\n  kind: MultiPatch\n  metadata:\n    name: bench\n  patches:\n")
	for t := 0; t < 20; t++ {
		fmt.Fprintf(&b, `  - target:
      kind: Deployment
      labelSelector: team=team-%d
    patch: |
      spec:
        replicas: %d
        template:
          spec:
            containers:
            - name: app
              env:
              - name: TEAM
                value: team-%d
              resources:
                limits:
                  memory: 256Mi
`, t, 3+t%3, t)
	}
	return []byte(b.String())
}

// BenchmarkMultiPatch runs 20 label-selected strategic patches over n
// Deployments (3n resources) beside the identity pass on the same list
// (target: at most 1.5 times it).
func BenchmarkMultiPatch(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("deployments=%d", n), func(b *testing.B) {
			fnruntest.BesideIdentity(b, Function, benchList(n))
		})
	}
}

// corpusConfig patches every Deployment of the corpus of real manifests.
const corpusConfig = `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: all-deployments
patches:
- target:
    kind: Deployment
  patch: |
    spec:
      revisionHistoryLimit: 3
      template:
        spec:
          securityContext:
            runAsNonRoot: true
`

// BenchmarkMultiPatchCorpus: one strategic patch over every Deployment of
// real manifests as kpt sends them (20 copies of the corpus: 2,677 items,
// 6.6 MB), beside the identity pass (target: at most 0.5 times kyaml's in
// CPU and peak RSS). Skipped without the corpus (fnruntest.CorpusDir).
func BenchmarkMultiPatchCorpus(b *testing.B) {
	fnruntest.BesideIdentity(b, Function, fnruntest.CorpusList(b, 20, corpusConfig))
}

// BenchmarkMultiPatchManifests: the same over keda's and metrics-server's
// manifests (kustomize bases, overlays and CRDs; twenty copies, the CRDs
// once: about 1,170 items, 1.8 MB),
// which resourcelist.py leaves out (target: at most 0.5 times kyaml's in
// CPU and peak RSS).
func BenchmarkMultiPatchManifests(b *testing.B) {
	fnruntest.BesideIdentity(b, Function, fnruntest.ManifestList(b, 20, corpusConfig, "keda", "metrics-server"))
}

// BenchmarkMultiPatchCorpusChecks: what a config's validate: and explain:
// cost on the corpus, the patch of BenchmarkMultiPatchCorpus with
// validate: off (nothing watched, as before issue 31), the default
// (validate: warn) and explain: true, each alone, in one run (issue 31's
// target: explain at most 10% more CPU).
func BenchmarkMultiPatchCorpusChecks(b *testing.B) {
	fnruntest.CorpusChecks(b, Function, corpusConfig, "patches:\n")
}

func TestBenchListIsPatched(t *testing.T) {
	out, outcome, err := fnrun.RunBytes(Function, benchList(40))
	if err != nil || outcome.Failed || len(outcome.Results) != outcome.Summaries {
		t.Fatalf("%v %v", err, outcome.Results)
	}
	items := string(out)[:strings.Index(string(out), "functionConfig:")]
	if got := strings.Count(items, "name: TEAM"); got != 40 {
		t.Fatalf("%d Deployments got the TEAM variable, want 40", got)
	}
}
