package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 14, "Point at the user's own file": an unknown config field is
// reported with its line in the user's config file — not in the
// ResourceList stream kpt or kustomize sent — and with the file's name when
// the client gives it away (kpt fn render names it; kustomize lists it in
// kustomization.yaml). And each message reaches the user once: kpt shows
// results and stderr both, so under kpt the function leaves stderr to kpt's
// results; kustomize shows only stderr, so there it writes them.
const typoConfig = `# Scale every Deployment.
# (a second comment line)
apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: scale
patches:
- target: {kind: Deployment}
  patch: |-
    spec:
      replicas: 3
- traget: {kind: Deployment}
  patch: |-
    spec:
      replicas: 3
`

const typoMessage = `patches[1]: unknown field "traget"`

const typoDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 1
`

// once checks that the message appears exactly once in what the user reads,
// with the wanted location.
func once(t *testing.T, what, out, location string) {
	t.Helper()
	if n := strings.Count(out, typoMessage); n != 1 {
		t.Errorf("%s: the message appears %d times; want once\n%s", what, n, out)
	}
	if want := typoMessage + " (" + location + "); did you mean target?"; !strings.Contains(out, want) {
		t.Errorf("%s: want %q\n%s", what, want, out)
	}
}

func typoPackage(t *testing.T) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pkg"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "pkg", "deploy.yaml"), []byte(typoDeployment), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestKptEvalNamesTheConfigLineOnce(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := typoPackage(t)
	os.WriteFile(filepath.Join(dir, "f.yaml"), []byte(typoConfig), 0o644)
	r := run(t, dir, nil, nil, kpt(t), "fn", "eval", "pkg", "--exec", bin, "--fn-config", "f.yaml")
	if r.code == 0 {
		t.Fatalf("kpt fn eval succeeded\n%s", r)
	}
	once(t, "kpt fn eval", r.stdout+r.stderr, "line 12")
}

func TestKptRenderNamesTheConfigFileAndLineOnce(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := typoPackage(t)
	os.MkdirAll(filepath.Join(dir, "pkg", "fns"), 0o755)
	os.WriteFile(filepath.Join(dir, "pkg", "fns", "scale.yaml"), []byte(typoConfig), 0o644)
	kptfile := "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: " + bin + "\n    configPath: fns/scale.yaml\n"
	os.WriteFile(filepath.Join(dir, "pkg", "Kptfile"), []byte(kptfile), 0o644)
	r := run(t, dir, nil, nil, kpt(t), "fn", "render", "pkg", "--allow-exec")
	if r.code == 0 {
		t.Fatalf("kpt fn render succeeded\n%s", r)
	}
	once(t, "kpt fn render", r.stdout+r.stderr, "line 12 of fns/scale.yaml")
}

func TestKustomizeNamesTheConfigFileAndLineOnce(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := typoPackage(t)
	cfg := strings.Replace(typoConfig, "  name: scale\n", "  name: scale\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: "+bin+"\n", 1)
	os.WriteFile(filepath.Join(dir, "scale.yaml"), []byte(cfg), 0o644)
	os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- pkg/deploy.yaml\ntransformers:\n- scale.yaml\n"), 0o644)
	r := run(t, dir, nil, nil, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if r.code == 0 {
		t.Fatalf("kustomize build succeeded\n%s", r)
	}
	once(t, "kustomize", r.stdout+r.stderr, "line 16 of scale.yaml")
}

// Without a config, kpt fn eval sends a ConfigMap named function-input; the
// message says a config is required and how to pass one. A file a config
// names that is not there is reported with the absolute path looked at and
// why there (kpt fn eval: kpt's working directory). Each once.
func TestKptEvalNoConfigAndMissingFile(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := typoPackage(t)
	r := run(t, dir, nil, nil, kpt(t), "fn", "eval", "pkg", "--exec", bin)
	if r.code == 0 || strings.Count(r.stdout+r.stderr, "a function config is required") != 1 ||
		!strings.Contains(r.stdout+r.stderr, "kpt fn eval --fn-config FILE") {
		t.Errorf("no config: want one message saying a config is required and how to pass it\n%s", r)
	}
	os.WriteFile(filepath.Join(dir, "f.yaml"), []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata:\n  name: hpa\npatches:\n- target: {kind: Deployment}\n  path: patches/hpa.yaml\n"), 0o644)
	r = run(t, dir, nil, nil, kpt(t), "fn", "eval", "pkg", "--exec", bin, "--fn-config", "f.yaml")
	want := func(d string) string {
		return `path: file "patches/hpa.yaml": no such file or directory (looked for ` + filepath.Join(d, "patches", "hpa.yaml") +
			"; relative paths resolve against the working directory: kpt's under kpt fn eval"
	}
	real, _ := filepath.EvalSymlinks(dir) // the working directory as the function sees it may be either
	out := r.stdout + r.stderr
	n := strings.Count(out, want(dir))
	if real != dir {
		n += strings.Count(out, want(real))
	}
	if r.code == 0 || n != 1 {
		t.Errorf("missing file: want once %q\n%s", want(dir), r)
	}
}
