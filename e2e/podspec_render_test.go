package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// meshPackage is a kpt package whose pipeline runs podspec-patch with one
// config that sets the app's environment on "every container" before it
// injects a sidecar: the order in which a re-render used to reach the
// sidecar it had injected.
var meshPackage = map[string]string{
	"Kptfile": `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: mesh
pipeline:
  mutators:
  - exec: EXEC
    configPath: mesh.yaml
`,
	"mesh.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: PodSpecPatch
metadata:
  name: mesh
  annotations:
    config.kubernetes.io/local-config: "true"
patchesPodSpec:
- target: {kind: Deployment}
  containerPatch: |-
    env:
    - name: APP_ENV
      value: production
- matchAnnotations:
    sidecar.istio.io/inject: "true"
  patch: |-
    containers:
    - name: istio-proxy
      image: istio/proxyv2:1.22
`,
	"api.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  annotations:
    sidecar.istio.io/inject: "true"
spec:
  template:
    spec:
      containers:
      - name: api
        image: example/api:1
`,
}

// TestPodSpecPatchRenderTwice renders the mesh package with `kpt fn render`
// twice: the first render injects the sidecar and gives only the app its
// environment; the second, on the first's output, must change nothing.
func TestPodSpecPatchRenderTwice(t *testing.T) {
	bin := requireFunction(t, "podspec-patch")
	tmp := t.TempDir()
	pkg := filepath.Join(tmp, "a")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range meshPackage {
		text = strings.ReplaceAll(text, "EXEC", bin)
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	render := func(dir string) {
		t.Helper()
		r := run(t, env.work, nil, nil, kpt(t), "fn", "render", "--allow-exec", filepath.Join(tmp, dir))
		if r.code != 0 {
			t.Fatalf("render of %s failed\n%s", dir, r)
		}
	}
	copyDir(t, pkg, filepath.Join(tmp, "b"))
	render("b")
	raw, err := os.ReadFile(filepath.Join(tmp, "b", "api.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := `      containers:
      - name: api
        image: example/api:1
        env:
        - name: APP_ENV
          value: production
      - name: istio-proxy
        image: istio/proxyv2:1.22
`
	if !strings.HasSuffix(string(raw), want) {
		t.Fatalf("first render: want the sidecar injected and only the app given APP_ENV; api.yaml is\n%s", raw)
	}
	copyDir(t, filepath.Join(tmp, "b"), filepath.Join(tmp, "c"))
	render("c")
	if again := diffTrees(t, tmp, "b", "c"); again != "" {
		t.Errorf("the second render changed the package:\n%s", again)
	}
}
