package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// demoDir is the demo package, relative to the repository root: a Kptfile,
// app/, functions/, and a .krmignore keeping the kustomize flavour and
// .expected/ out.
const demoDir = "examples/demo-shop"

// demoFunctions lists the functions the demo Kptfile's pipeline runs, from
// its exec entries, which must read ./bin/<function>.
func demoFunctions(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(env.root, demoDir, "Kptfile"))
	if err != nil {
		t.Fatal(err)
	}
	var kptfile struct {
		Pipeline struct {
			Mutators, Validators []struct {
				Exec  string `json:"exec"`
				Image string `json:"image"`
			}
		} `json:"pipeline"`
	}
	if err := yaml.Unmarshal(raw, &kptfile); err != nil {
		t.Fatalf("Kptfile: %v", err)
	}
	var names []string
	for _, fn := range append(kptfile.Pipeline.Mutators, kptfile.Pipeline.Validators...) {
		name, ok := strings.CutPrefix(fn.Exec, "./bin/")
		if !ok || strings.Contains(name, "/") {
			t.Fatalf("Kptfile: pipeline entry exec %q image %q: the demo runs ./bin/<function>", fn.Exec, fn.Image)
		}
		names = append(names, name)
	}
	return names
}

func copyDemo(t *testing.T, dst string) {
	t.Helper()
	copyDir(t, filepath.Join(env.root, demoDir), dst)
}

// TestDemoPackage checks what kpt reads of the demo package: the Kptfile,
// app/ and functions/, never the kustomization or .expected/.
func TestDemoPackage(t *testing.T) {
	r := run(t, env.root, nil, nil, kpt(t), "fn", "source", demoDir)
	if r.code != 0 {
		t.Fatalf("kpt fn source:\n%s", r)
	}
	var rl struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(r.stdout), &rl); err != nil {
		t.Fatal(err)
	}
	if len(rl.Items) == 0 {
		t.Fatal("the demo package holds no resources")
	}
	for _, obj := range rl.Items {
		path, _ := kptAnnotations(obj)["internal.config.kubernetes.io/path"].(string)
		if path != "Kptfile" && !strings.HasPrefix(path, "app/") && !strings.HasPrefix(path, "functions/") {
			t.Errorf("%s: in the demo package but not in app/ or functions/: extend its .krmignore", path)
		}
	}
}

// requireDemoFunctions skips a demo test, naming them, while functions of
// the pipeline do not exist yet.
func requireDemoFunctions(t *testing.T) {
	t.Helper()
	var missing []string
	for _, n := range demoFunctions(t) {
		if !present(n) {
			missing = append(missing, "functions/"+n)
		}
	}
	if len(missing) > 0 {
		t.Skipf("the demo pipeline needs every function; missing: %s", strings.Join(missing, ", "))
	}
	for _, n := range demoFunctions(t) {
		requireFunction(t, n)
	}
}

// renderDemo runs `kpt fn render --allow-exec` on tmp/pkg, a copy of the demo
// package, from env.work, where ./bin holds the binaries.
func renderDemo(t *testing.T, tmp, pkg string) {
	t.Helper()
	results := filepath.Join(tmp, "results-"+pkg)
	r := run(t, env.work, nil, nil, kpt(t), "fn", "render", "--allow-exec", "--results-dir", results, filepath.Join(tmp, pkg))
	if r.code != 0 {
		t.Fatalf("render failed\n%s", r)
	}
	// The demo is a showcase: a warning there is a mistake in it. Each
	// config entry reports one info line (what it changed).
	var others []any
	infos := 0
	for _, res := range kptResults(t, results) {
		if m, _ := res.(map[string]any); m["severity"] == "info" {
			infos++
			continue
		}
		others = append(others, res)
	}
	if len(others) > 0 {
		t.Errorf("render of %s reported results other than infos, want none:\n%s", pkg, toYAML(others))
	}
	if infos == 0 {
		t.Errorf("render of %s reported no info results; every config entry reports what it changed", pkg)
	}
}

// TestKustomizeDemo builds examples/demo-shop/kustomization.yaml, the demo's kustomize
// flavour (the same function configs as exec transformers), with
// `kustomize build --enable-alpha-plugins --enable-exec`: it must give the
// resources `kpt fn render` gives.
func TestKustomizeDemo(t *testing.T) {
	requireDemoFunctions(t)
	kz := kustomize(t)
	// The configs' exec paths are ../../bin/<function>, relative to
	// examples/demo-shop: a copy in env.work finds env.work/bin.
	demo := filepath.Join(env.work, demoDir)
	if err := os.RemoveAll(demo); err != nil {
		t.Fatal(err)
	}
	copyDir(t, filepath.Join(env.root, demoDir), demo)
	r := run(t, env.work, nil, nil, kz, "build", "--enable-alpha-plugins", "--enable-exec", demoDir)
	if r.code != 0 {
		t.Fatalf("kustomize build failed\n%s", r)
	}
	got := map[string]map[string]any{}
	for _, obj := range splitDocs(t, []byte(r.stdout)) {
		addByID(t, got, withoutBookkeeping(obj))
	}

	tmp := t.TempDir()
	copyDemo(t, filepath.Join(tmp, "pkg"))
	renderDemo(t, tmp, "pkg")
	// The package's resources as kpt reads them (through .krmignore).
	src := run(t, tmp, nil, nil, kpt(t), "fn", "source", "pkg")
	if src.code != 0 {
		t.Fatalf("kpt fn source:\n%s", src)
	}
	var rl struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal([]byte(src.stdout), &rl); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{}
	for _, obj := range rl.Items {
		if !localConfig(obj) {
			addByID(t, want, withoutBookkeeping(withoutKptAnnotations(obj)))
		}
	}
	compareResources(t, "kpt fn render", want, "kustomize build", got)
}

// TestKptRenderDemo renders a copy of the demo package with
// `kpt fn render --allow-exec`, as `make demo` does, compares the change with
// its .expected/diff.patch, and renders again: kpt re-runs pipelines on their own
// output, which must then not change.
func TestKptRenderDemo(t *testing.T) {
	requireDemoFunctions(t)
	tmp := t.TempDir()
	copyDemo(t, filepath.Join(tmp, "a"))
	copyDemo(t, filepath.Join(tmp, "b"))
	render := func(pkg string) { renderDemo(t, tmp, pkg) }
	render("b")
	diff := diffTrees(t, tmp, "a", "b")
	want := filepath.Join(env.root, demoDir, ".expected", "diff.patch")
	if update {
		if err := os.WriteFile(want, []byte(diff), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("UPDATE_GOLDEN: wrote %s: review it", want)
	} else {
		raw, err := os.ReadFile(want)
		if err != nil {
			t.Fatalf("%v (UPDATE_GOLDEN=1 writes it; review it then)", err)
		}
		if string(raw) != diff {
			t.Errorf("the rendered demo is not what %s/.expected/diff.patch says\n--- want\n%s--- got\n%s", demoDir, raw, diff)
		}
	}
	copyDir(t, filepath.Join(tmp, "b"), filepath.Join(tmp, "c"))
	render("c")
	if again := diffTrees(t, tmp, "b", "c"); again != "" {
		t.Errorf("a second render changed the rendered package (kpt re-runs pipelines on their output):\n%s", again)
	}
}

// withoutKptAnnotations drops the annotations kpt adds when it reads a
// package, which it never writes to files.
func withoutKptAnnotations(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	for k := range ann {
		if strings.HasPrefix(k, "internal.config.kubernetes.io/") || k == "config.kubernetes.io/path" ||
			k == "config.kubernetes.io/index" || k == "config.k8s.io/id" {
			delete(ann, k)
		}
	}
	if ann != nil && len(ann) == 0 {
		delete(md, "annotations")
	}
	return obj
}
