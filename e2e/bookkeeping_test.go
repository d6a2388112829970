package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKptRenderKeepsBookkeeping renders, with real `kpt fn render`, a package
// whose multi-patch config selects broadly: `target: {namespace: default}`
// with `$patch: delete` (a resource without a namespace counts as default)
// and `target: {name: api}`. The Kptfile and the config file are items of
// the ResourceList there; were they selected, kpt would delete them from
// disk or rewrite them. They must come out byte-identical, while the
// package's own resources are patched and deleted as asked.
func TestKptRenderKeepsBookkeeping(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	pkg := filepath.Join(t.TempDir(), "pkg")
	files := map[string]string{
		"Kptfile": `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    config.kubernetes.io/local-config: "true"
pipeline:
  mutators:
  - exec: ` + bin + `
    configPath: fn.yaml
`,
		// No local-config annotation: the config is guarded as the
		// function's config, not by the annotation.
		"fn.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: api
patches:
- target: {name: api}
  patch: |-
    metadata:
      labels:
        patched: "true"
- target: {namespace: default}
  patch: |-
    $patch: delete
`,
		"values.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: values
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  team: web
`,
		"api.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: prod
spec:
  replicas: 1
`,
		"leftover.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: leftover
data:
  a: b
`,
	}
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, env.work, nil, nil, kpt(t), "fn", "render", "--allow-exec", pkg)
	if r.code != 0 {
		t.Fatalf("render failed\n%s", r)
	}
	for _, name := range []string{"Kptfile", "fn.yaml", "values.yaml"} {
		got, err := os.ReadFile(filepath.Join(pkg, name))
		if err != nil {
			t.Errorf("%s: %v (the render deleted the package's bookkeeping)", name, err)
			continue
		}
		if string(got) != files[name] {
			t.Errorf("%s was changed by the render:\n%s\nwant:\n%s", name, got, files[name])
		}
	}
	if _, err := os.Stat(filepath.Join(pkg, "leftover.yaml")); !os.IsNotExist(err) {
		t.Errorf("leftover.yaml (a ConfigMap in default) was not deleted: %v", err)
	}
	api, err := os.ReadFile(filepath.Join(pkg, "api.yaml"))
	if err != nil || !strings.Contains(string(api), `patched: "true"`) {
		t.Errorf("api.yaml was not patched (%v):\n%s", err, api)
	}
}
