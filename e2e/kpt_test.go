package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// evalCase runs `kpt fn eval` with the function given by fnArgs on a copy of
// the case's package (tmp/b, beside a pristine tmp/a) and returns kpt's exit,
// the diff of the package and kpt's results. kpt runs in the case directory, so
// that relative file paths in config.yaml resolve beside it.
func evalCase(t *testing.T, f *fixture, tmp string, extraEnv []string, fnArgs ...string) (result, string, []any) {
	t.Helper()
	copyDir(t, f.pkg(), filepath.Join(tmp, "a"))
	copyDir(t, f.pkg(), filepath.Join(tmp, "b"))
	resultsDir := filepath.Join(tmp, "results")
	args := append([]string{"fn", "eval"}, fnArgs...)
	args = append(args, "--fn-config", f.config(), "--results-dir", resultsDir, filepath.Join(tmp, "b"))
	r := run(t, f.dir, extraEnv, nil, kpt(t), args...)
	return r, diffTrees(t, tmp, "a", "b"), kptResults(t, resultsDir)
}

// check judges one kpt run against the case's expectations.
func (f *fixture) check(t *testing.T, r result, diff string, results []any) {
	t.Helper()
	if f.failing() {
		if r.code == 0 {
			t.Errorf("kpt exited 0, want a failure (the case expects an error result)\n%s", r)
		}
		if diff != "" {
			t.Errorf("a failed run changed the package:\n%s", diff)
		}
	} else {
		if r.code != 0 {
			t.Errorf("kpt failed\n%s", r)
		}
		if diff != f.diff {
			t.Errorf("the package after the run is not what .expected/diff.patch says\n--- want\n%s--- got\n%s", f.diff, diff)
		}
	}
	checkResults(t, f.results, results)
}

// TestKptEvalExec runs every case through `kpt fn eval --exec`. A recorder
// between kpt and the function keeps what they exchange, to check that the
// function keeps the annotations kpt writes files by.
func TestKptEvalExec(t *testing.T) {
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		tmp := t.TempDir()
		rec := recorder(t, tmp, bin)
		r, diff, results := evalCase(t, f, tmp, nil, "--exec", rec)
		if update {
			f.writeExpected(t, diff, results)
			return
		}
		f.check(t, r, diff, results)
		checkExchange(t, tmp, r.code != 0)
	})
}

// recorder writes a script that runs bin, keeping its stdin and stdout in dir.
func recorder(t *testing.T, dir, bin string) string {
	t.Helper()
	path := filepath.Join(dir, "recorder")
	script := fmt.Sprintf("#!/usr/bin/env bash\nset -o pipefail\ntee %q | %q | tee %q\n",
		filepath.Join(dir, "input.yaml"), bin, filepath.Join(dir, "output.yaml"))
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// kptAnnotations are the annotations kpt writes files by (the internal.*
// ones and their legacy forms). A function must return them unchanged on
// every resource it keeps. The annotations-migration-resource-id is left out:
// it is kyaml's bookkeeping for one run, which kyaml itself removes.
const migrationID = "internal.config.kubernetes.io/annotations-migration-resource-id"

func kptAnnotations(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	all, _ := md["annotations"].(map[string]any)
	kept := map[string]any{}
	for k, v := range all {
		if k == migrationID {
			continue
		}
		if strings.HasPrefix(k, "internal.config.kubernetes.io/") ||
			k == "config.kubernetes.io/path" || k == "config.kubernetes.io/index" || k == "config.k8s.io/id" {
			kept[k] = v
		}
	}
	return kept
}

// checkExchange reads what the recorder kept: the function must keep kpt's
// annotations on every resource it returns, and return the items unchanged
// when it fails (all or nothing).
func checkExchange(t *testing.T, dir string, failed bool) {
	t.Helper()
	read := func(name string) []map[string]any {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var rl struct {
			Items []map[string]any `json:"items"`
		}
		if err := yaml.Unmarshal(raw, &rl); err != nil {
			t.Fatalf("%s: not a ResourceList: %v\n%s", name, err, raw)
		}
		return rl.Items
	}
	in, out := read("input.yaml"), read("output.yaml")
	if failed {
		for _, items := range [][]map[string]any{in, out} {
			for _, obj := range items {
				md, _ := obj["metadata"].(map[string]any)
				ann, _ := md["annotations"].(map[string]any)
				delete(ann, migrationID)
			}
		}
		if !reflect.DeepEqual(in, out) {
			t.Errorf("the function failed but changed the items (all or nothing)\n--- kpt sent\n%s--- function returned\n%s", toYAML(in), toYAML(out))
		}
		return
	}
	byID := map[any]map[string]any{}
	byName := map[string]map[string]any{}
	for _, obj := range in {
		a := kptAnnotations(obj)
		if a["internal.config.kubernetes.io/id"] == nil {
			t.Fatalf("kpt sent an item without internal.config.kubernetes.io/id: the check below relies on it")
		}
		byID[a["internal.config.kubernetes.io/id"]] = obj
		byName[describe(obj)] = obj
	}
	for _, obj := range out {
		got := kptAnnotations(obj)
		id, hasID := got["internal.config.kubernetes.io/id"]
		orig, ok := byID[id]
		if !hasID {
			// A resource the function made, unless it is one kpt sent
			// that lost its annotations: kpt would move it to a new file.
			orig, ok = byName[describe(obj)]
		}
		if !ok {
			continue
		}
		if want := kptAnnotations(orig); !reflect.DeepEqual(want, got) {
			t.Errorf("%s: kpt's annotations changed\n--- kpt sent\n%s--- function returned\n%s", describe(obj), toYAML(want), toYAML(got))
		}
	}
}

func describe(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	s := fmt.Sprintf("%v %v ", obj["apiVersion"], obj["kind"])
	if ns, ok := md["namespace"]; ok {
		s += fmt.Sprint(ns) + "/"
	}
	return s + fmt.Sprint(md["name"])
}

// imageVersion tags the images this run builds, so that parallel runs on one
// machine do not replace each other's.
var imageVersion = fmt.Sprintf("e2e-%d", os.Getpid())

func image(function string) string {
	return "ghcr.io/patchwork-krm/" + function + ":" + imageVersion
}

// buildImages builds the image of every present function with build/images.sh
// (what `make images` runs) from the binaries built for this run, and removes
// them when the test ends.
func buildImages(t *testing.T) {
	t.Helper()
	podman := podman(t)
	var names []string
	for n := range env.built {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		if len(env.broken) == 0 {
			t.Skip("no functions/ directory exists yet")
		}
		return // only functions that do not build: their tests fail
	}
	script := filepath.Join(env.root, "build", "images.sh")
	r := run(t, env.root, []string{"BIN_DIR=" + env.bin}, nil, script, append([]string{imageVersion}, names...)...)
	if r.code != 0 {
		t.Fatalf("building images:\n%s", r)
	}
	t.Cleanup(func() {
		for _, n := range names {
			run(t, env.root, []string{containersConf()}, nil, podman, "rmi", image(n))
		}
	})
}

// TestKptEvalImage runs every case through `kpt fn eval --image` with podman,
// on images built locally from this run's binaries.
func TestKptEvalImage(t *testing.T) {
	buildImages(t)
	t.Run("contents", func(t *testing.T) {
		for _, function := range fixtureFunctions(t) {
			t.Run(function, func(t *testing.T) {
				requireFunction(t, function)
				checkImage(t, image(function))
			})
		}
	})
	runtime := []string{"KPT_FN_RUNTIME=podman", containersConf()}
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		f.skip(t, "image")
		r, diff, results := evalCase(t, f, t.TempDir(), runtime, "--image", image(f.function), "--image-pull-policy", "never")
		f.check(t, r, diff, results)
	})
}

// checkImage checks that an image holds nothing but the function and the
// user it runs as, and runs as nobody.
func checkImage(t *testing.T, img string) {
	t.Helper()
	podman := podman(t)
	conf := []string{containersConf()}
	r := run(t, env.root, conf, nil, podman, "image", "inspect", "--format", "{{.Config.User}} {{.Config.Entrypoint}}", img)
	if r.code != 0 {
		t.Fatalf("inspect:\n%s", r)
	}
	if got, want := strings.TrimSpace(r.stdout), "65534:65534 [/usr/local/bin/function]"; got != want {
		t.Errorf("user and entrypoint: %q, want %q", got, want)
	}
	name := fmt.Sprintf("patchwork-e2e-%d-%s", os.Getpid(), filepath.Base(t.Name()))
	if r := run(t, env.root, conf, nil, podman, "create", "--name", name, img); r.code != 0 {
		t.Fatalf("create:\n%s", r)
	}
	defer run(t, env.root, conf, nil, podman, "rm", name)
	tarball := filepath.Join(t.TempDir(), "fs.tar")
	if r := run(t, env.root, conf, nil, podman, "export", "--output", tarball, name); r.code != 0 {
		t.Fatalf("export:\n%s", r)
	}
	r = run(t, env.root, nil, nil, "tar", "-tf", tarball)
	if r.code != 0 {
		t.Fatalf("tar:\n%s", r)
	}
	var files []string
	for _, l := range strings.Fields(r.stdout) {
		if !strings.HasSuffix(l, "/") {
			files = append(files, l)
		}
	}
	sort.Strings(files)
	want := []string{"etc/group", "etc/passwd", "usr/local/bin/function"}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("image files: %v, want %v", files, want)
	}
}
