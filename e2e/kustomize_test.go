package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestKustomize runs every case as a kustomize exec function:
// `kustomize build --enable-alpha-plugins --enable-exec` of a kustomization
// listing the package as resources and the case's config under transformers:
// (or generators:, see harness.yaml). The build must give the same resources
// as `kpt fn eval` (but for our own bookkeeping annotations); a failing case must fail with its error messages on
// stderr, the only place kustomize shows them.
func TestKustomize(t *testing.T) {
	kz := kustomize(t)
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		f.skip(t, "kustomize")
		kustomizeCase(t, kz, f, bin, nil, func(dir string) string {
			// A relative exec path resolves against the kustomization directory.
			rel, err := filepath.Rel(dir, bin)
			if err != nil {
				t.Fatal(err)
			}
			return "exec:\n  path: " + rel + "\n"
		})
	})
}

// TestKustomizeContainer runs every case as a kustomize container function
// (`config.kubernetes.io/function: {container: {image: …}}`, built with
// `--enable-alpha-plugins` alone), on the images built from this run's
// binaries. kustomize runs containers with the `docker` CLI; here podman's
// docker-compatible CLI (Debian's podman-docker, which `make tools`
// installs) stands in for it, first on PATH.
func TestKustomizeContainer(t *testing.T) {
	kz := kustomize(t)
	buildImages(t)
	dockerDir := podmanDocker(t)
	extra := []string{"PATH=" + dockerDir + string(os.PathListSeparator) + os.Getenv("PATH"), containersConf()}
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		f.skip(t, "kustomize")
		f.skip(t, "image")
		kustomizeCase(t, kz, f, bin, extra, func(string) string {
			return "container:\n  image: " + image(f.function) + "\n"
		})
	})
}

// podmanDocker returns a directory whose `docker` is podman-docker's.
func podmanDocker(t *testing.T) string {
	t.Helper()
	const script = "/usr/bin/docker"
	b, err := os.ReadFile(script)
	if err != nil || !strings.Contains(string(b), "podman") {
		if env.ci {
			t.Fatalf("%s is not podman-docker's (make tools installs podman-docker)", script)
		}
		t.Skipf("%s is not podman-docker's: apt-get install podman-docker (make tools does, as root)", script)
	}
	dir := t.TempDir()
	if err := os.Symlink(script, filepath.Join(dir, "docker")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// kustomizeCase builds a case's package with its config as a kustomize
// function (function gives the config.kubernetes.io/function annotation) and
// compares the result with kpt fn eval's, or checks the error messages.
func kustomizeCase(t *testing.T, kz string, f *fixture, bin string, extraEnv []string, function func(dir string) string) {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, f.dir, dir)
	if err := os.RemoveAll(filepath.Join(dir, ".expected")); err != nil {
		t.Fatal(err)
	}
	markFunction(t, filepath.Join(dir, "config.yaml"), function(dir))
	var k strings.Builder
	k.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n")
	for _, file := range yamlFiles(t, filepath.Join(dir, "package")) {
		fmt.Fprintf(&k, "- package/%s\n", file)
	}
	fmt.Fprintf(&k, "%s:\n- config.yaml\n", f.harness.Kustomize)
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, extraEnv, nil, kz, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if f.failing() {
		if r.code == 0 {
			t.Fatalf("kustomize build succeeded, want a failure\n%s", r)
		}
		for _, msg := range f.errorMessages() {
			if !strings.Contains(r.stderr, msg) {
				t.Errorf("kustomize's stderr lacks the error %q\n%s", msg, r)
			}
		}
		return
	}
	if r.code != 0 {
		t.Fatalf("kustomize build failed\n%s", r)
	}
	tmp := t.TempDir()
	if r, _, _ := evalCase(t, f, tmp, nil, "--exec", bin); r.code != 0 {
		t.Fatalf("kpt fn eval failed\n%s", r)
	}
	want := map[string]map[string]any{}
	for _, file := range yamlFiles(t, filepath.Join(tmp, "b")) {
		raw, err := os.ReadFile(filepath.Join(tmp, "b", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range splitDocs(t, raw) {
			if !localConfig(obj) { // kustomize leaves local config out of its output
				addByID(t, want, withoutBookkeeping(obj))
			}
		}
	}
	got := map[string]map[string]any{}
	for _, obj := range splitDocs(t, []byte(r.stdout)) {
		addByID(t, got, withoutBookkeeping(obj))
	}
	compareResources(t, "kpt fn eval", want, "kustomize build", got)
}

// markExec makes kustomize run a config as an exec function: bin, relative
// to the kustomization directory.
func markExec(t *testing.T, path, bin string) {
	t.Helper()
	markFunction(t, path, "exec:\n  path: "+bin+"\n")
}

// markFunction adds the annotation that makes kustomize run a config as a
// function (exec or container), keeping the rest of the file as it is.
func markFunction(t *testing.T, path, function string) {
	t.Helper()
	node, err := kyaml.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := node.PipeE(kyaml.SetAnnotation("config.kubernetes.io/function", function)); err != nil {
		t.Fatal(err)
	}
	if err := kyaml.WriteFile(node, path); err != nil {
		t.Fatal(err)
	}
}

// withoutBookkeeping drops our own fn.patchwork.dev/ annotations, with which
// a function recognises its earlier output when kpt re-runs a pipeline.
// Under kustomize, which runs a function once, a function may leave them out
// (a generator hands hashing to kustomize instead).
func withoutBookkeeping(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	for k := range ann {
		if strings.HasPrefix(k, "fn.patchwork.dev/") {
			delete(ann, k)
		}
	}
	if ann != nil && len(ann) == 0 {
		delete(md, "annotations")
	}
	return obj
}

func localConfig(obj map[string]any) bool {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	return ann["config.kubernetes.io/local-config"] == "true"
}

func addByID(t *testing.T, m map[string]map[string]any, obj map[string]any) {
	t.Helper()
	id := describe(obj)
	if _, dup := m[id]; dup {
		t.Fatalf("%s appears twice", id)
	}
	m[id] = obj
}

// compareResources compares two sets of resources by id, as data.
func compareResources(t *testing.T, wantFrom string, want map[string]map[string]any, gotFrom string, got map[string]map[string]any) {
	t.Helper()
	for _, id := range union(want, got) {
		if !reflect.DeepEqual(want[id], got[id]) {
			t.Errorf("%s: %s and %s disagree\n--- %s\n%s--- %s\n%s", id, wantFrom, gotFrom, wantFrom, toYAML(want[id]), gotFrom, toYAML(got[id]))
		}
	}
}

// union returns the ids of both maps, sorted.
func union(a, b map[string]map[string]any) []string {
	set := map[string]bool{}
	for id := range a {
		set[id] = true
	}
	for id := range b {
		set[id] = true
	}
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
