package e2e

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// onePatch is a ResourceList with one Deployment and a multi-patch config
// touching its ports: the smallest real run, so that what is measured is
// the binary's start-up (schema tables, config decoding) more than work.
const onePatch = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: dns}
  spec:
    template:
      spec:
        containers:
        - name: dns
          ports: [{containerPort: 53, protocol: UDP}, {containerPort: 53, protocol: TCP}]
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: MultiPatch
  metadata: {name: one}
  patches:
  - target: {kind: Deployment}
    patch: |
      spec:
        template:
          spec:
            containers:
            - name: dns
              ports:
              - containerPort: 53
                hostPort: 5353
`

// BenchmarkStartup runs the multi-patch binary as kpt does, once per
// iteration: process start to exit, patching one resource (target < 20 ms).
func BenchmarkStartup(b *testing.B) { benchStartup(b, onePatch) }

// benchStartup runs multi-patch on list once per iteration.
func benchStartup(b *testing.B, list string) {
	bin, ok := env.built["multi-patch"]
	if !ok {
		b.Skip("multi-patch is not built")
	}
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin)
		cmd.Stdin = strings.NewReader(list)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if !strings.Contains(out.String(), "hostPort: 5353") {
			b.Fatalf("not patched:\n%s", out.String())
		}
	}
}
