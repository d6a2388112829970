package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// An example is one package examples/<name>/, laid out as the kpt functions
// catalog lays out its examples:
//
//	README.md               what it shows and how to run it
//	Kptfile                 the package; for render, its pipeline runs the function
//	.krmignore              keeps .expected/ (and files that are not resources) out
//	...                     the resources, the function config
//	.expected/config.yaml   how to run it (exampleRun)
//	.expected/diff.patch    `diff -ruN` from the example to the package after the run
//	.expected/results.yaml  the results kpt reports, when there are some
//
// UPDATE_GOLDEN=1 makes the exec run write diff.patch and results.yaml.
type example struct {
	fixture            // dir, diff and results, as for the fixtures
	run     exampleRun // .expected/config.yaml
	// functions the example runs: the Kptfile pipeline's (render) or the
	// exec's (eval).
	functions []string
}

// exampleRun is .expected/config.yaml.
type exampleRun struct {
	// TestType is "render" (kpt fn render runs the Kptfile pipeline, whose
	// entries are exec: ./bin/<function>) or "eval" (kpt fn eval).
	TestType string `json:"testType"`
	// Exec (eval) is the function as kpt runs it from the repository root:
	// ./bin/<function>.
	Exec string `json:"exec,omitempty"`
	// Image (eval) is the function's image, ghcr.io/patchwork-krm/<function>
	// with any tag; the tests run the image of this run instead.
	Image string `json:"image,omitempty"`
	// FnConfig (eval) is the function config, relative to the example.
	FnConfig string `json:"fnConfig,omitempty"`
	// Skip names the runs ("image") that cannot run this example, each with
	// the reason, which the test reports.
	Skip map[string]string `json:"skip,omitempty"`
}

const examplesDir = "examples"

var (
	binExec    = regexp.MustCompile(`^\./bin/([a-z0-9-]+)$`)
	imageRef   = regexp.MustCompile(`^ghcr\.io/patchwork-krm/([a-z0-9-]+)(:[A-Za-z0-9_.-]+)?$`)
	kptfileRun = regexp.MustCompile(`(?m)^(\s*- )exec: \./bin/([a-z0-9-]+)\s*$`)
)

// loadExamples reads and checks every examples/<name>/.
func loadExamples(t *testing.T) []*example {
	t.Helper()
	root := filepath.Join(env.root, examplesDir)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var all []*example
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		ex, err := loadExample(filepath.Join(root, e.Name()))
		if err != nil {
			t.Errorf("examples/%s: %v", e.Name(), err)
			continue
		}
		all = append(all, ex)
	}
	if t.Failed() {
		t.FailNow()
	}
	return all
}

func loadExample(dir string) (*example, error) {
	ex := &example{fixture: fixture{name: filepath.Base(dir), dir: dir}}
	for _, name := range []string{"README.md", "Kptfile", ".krmignore"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("no %s (an example is a kpt package with a README)", name)
		}
	}
	entries, err := os.ReadDir(ex.expected())
	if err != nil {
		return nil, fmt.Errorf("no .expected/: %w", err)
	}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(ex.expected(), e.Name()))
		if err != nil {
			return nil, err
		}
		switch e.Name() {
		case "config.yaml":
			if err := yaml.UnmarshalStrict(raw, &ex.run); err != nil {
				return nil, fmt.Errorf(".expected/config.yaml: %w", err)
			}
		case "diff.patch":
			ex.diff = string(raw)
		case "results.yaml":
			if err := yaml.UnmarshalStrict(raw, &ex.results); err != nil {
				return nil, fmt.Errorf(".expected/results.yaml: %w", err)
			}
		default:
			return nil, fmt.Errorf(".expected/%s: unknown file (config.yaml, diff.patch, results.yaml)", e.Name())
		}
	}
	for client := range ex.run.Skip {
		if client != "image" {
			return nil, fmt.Errorf(".expected/config.yaml: skip: %q: only image may be skipped", client)
		}
	}
	kptfile, err := os.ReadFile(filepath.Join(dir, "Kptfile"))
	if err != nil {
		return nil, err
	}
	pipeline := kptfileRun.FindAllStringSubmatch(string(kptfile), -1)
	switch ex.run.TestType {
	case "render":
		if ex.run.Exec != "" || ex.run.Image != "" || ex.run.FnConfig != "" {
			return nil, errors.New(".expected/config.yaml: render runs the Kptfile pipeline: no exec, image or fnConfig")
		}
		if len(pipeline) == 0 {
			return nil, errors.New("render: the Kptfile pipeline has no `- exec: ./bin/<function>` entry")
		}
		if strings.Contains(string(kptfile), "image:") {
			return nil, errors.New("render: the Kptfile pipeline runs ./bin/<function> only (the tests swap in images)")
		}
		for _, m := range pipeline {
			ex.functions = append(ex.functions, m[2])
		}
	case "eval":
		if len(pipeline) > 0 {
			return nil, errors.New("eval: the Kptfile has a pipeline; kpt fn eval would not run it")
		}
		m := binExec.FindStringSubmatch(ex.run.Exec)
		if m == nil {
			return nil, fmt.Errorf(".expected/config.yaml: exec %q, want ./bin/<function>", ex.run.Exec)
		}
		if im := imageRef.FindStringSubmatch(ex.run.Image); im == nil || im[1] != m[1] {
			return nil, fmt.Errorf(".expected/config.yaml: image %q, want ghcr.io/patchwork-krm/%s[:tag]", ex.run.Image, m[1])
		}
		if ex.run.FnConfig == "" {
			return nil, errors.New(".expected/config.yaml: eval needs fnConfig")
		}
		if _, err := os.Stat(filepath.Join(dir, ex.run.FnConfig)); err != nil {
			return nil, fmt.Errorf(".expected/config.yaml: fnConfig: %w", err)
		}
		ex.functions = []string{m[1]}
	default:
		return nil, fmt.Errorf(".expected/config.yaml: testType %q, want render or eval", ex.run.TestType)
	}
	if ex.failing() && ex.diff != "" {
		return nil, errors.New("a failing example changes no file: remove .expected/diff.patch")
	}
	return ex, nil
}

// copyExample copies the example without .expected/ to dst.
func copyExample(t *testing.T, ex *example, dst string) {
	t.Helper()
	copyDir(t, ex.dir, dst)
	if err := os.RemoveAll(filepath.Join(dst, ".expected")); err != nil {
		t.Fatal(err)
	}
}

// runExample runs the example as its config says, on tmp/b beside a pristine
// tmp/a, from env.work (whose bin/ holds this run's binaries, so that
// ./bin/<function> resolves as from the repository root). With images, the
// Kptfile's exec entries become this run's images in both copies. It
// returns kpt's exit, the diff and kpt's results.
func runExample(t *testing.T, ex *example, tmp, pkg string, images bool) (result, []any) {
	t.Helper()
	dir := filepath.Join(tmp, pkg)
	resultsDir := filepath.Join(tmp, "results-"+pkg)
	var extraEnv, args []string
	if images {
		extraEnv = []string{"KPT_FN_RUNTIME=podman", containersConf()}
	}
	switch ex.run.TestType {
	case "render":
		// Without --allow-exec for images: an exec entry left in the
		// pipeline makes kpt refuse to run it.
		if images {
			args = []string{"fn", "render", "--image-pull-policy", "never"}
		} else {
			args = []string{"fn", "render", "--allow-exec"}
		}
	case "eval":
		args = []string{"fn", "eval"}
		if images {
			args = append(args, "--image", image(ex.functions[0]), "--image-pull-policy", "never")
		} else {
			args = append(args, "--exec", ex.run.Exec)
		}
		args = append(args, "--fn-config", filepath.Join(dir, ex.run.FnConfig))
	}
	args = append(args, "--results-dir", resultsDir, dir)
	r := run(t, env.work, extraEnv, nil, kpt(t), args...)
	return r, kptResults(t, resultsDir)
}

// useImages rewrites the Kptfile pipeline of a copy: exec: ./bin/<function>
// becomes image: <this run's image of function>.
func useImages(t *testing.T, pkg string) {
	t.Helper()
	path := filepath.Join(pkg, "Kptfile")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := kptfileRun.ReplaceAllStringFunc(string(raw), func(line string) string {
		m := kptfileRun.FindStringSubmatch(line)
		return m[1] + "image: " + image(m[2])
	})
	if strings.Contains(out, "exec:") {
		t.Fatalf("%s: an exec entry is left after swapping in images:\n%s", path, out)
	}
	must(t, os.WriteFile(path, []byte(out), 0o644))
}

// requireExample skips an example whose functions do not exist yet.
func requireExample(t *testing.T, ex *example) {
	t.Helper()
	for _, fn := range ex.functions {
		requireFunction(t, fn)
	}
}

// TestExamples runs every examples/<name>/ through kpt as its
// .expected/config.yaml says, with the binaries (--exec, or the Kptfile's
// exec entries), and compares the change and the results with .expected/.
// kpt re-runs pipelines on their own output, so the run is repeated on the
// result, which must then not change.
func TestExamples(t *testing.T) {
	for _, ex := range loadExamples(t) {
		t.Run(ex.name, func(t *testing.T) {
			requireExample(t, ex)
			tmp := t.TempDir()
			copyExample(t, ex, filepath.Join(tmp, "a"))
			copyExample(t, ex, filepath.Join(tmp, "b"))
			r, results := runExample(t, ex, tmp, "b", false)
			diff := diffTrees(t, tmp, "a", "b")
			if update {
				ex.writeExpected(t, diff, results)
				return
			}
			ex.check(t, r, diff, results)
			if r.code != 0 {
				return
			}
			copyDir(t, filepath.Join(tmp, "b"), filepath.Join(tmp, "c"))
			if r, _ := runExample(t, ex, tmp, "c", false); r.code != 0 {
				t.Fatalf("the second run failed\n%s", r)
			}
			if again := diffTrees(t, tmp, "b", "c"); again != "" {
				t.Errorf("a second run changed the result (kpt re-runs pipelines on their output):\n%s", again)
			}
		})
	}
}

// TestExamplesImage runs every example again with this run's images (podman):
// the Kptfile pipeline's exec entries become images, and eval runs --image.
// Examples whose configs read files (path:, files:) say they cannot: a
// container sees no host files without kpt's --mount.
func TestExamplesImage(t *testing.T) {
	examples := loadExamples(t)
	buildImages(t)
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			requireExample(t, ex)
			if why, ok := ex.run.Skip["image"]; ok {
				t.Skipf("image does not run this example: %s", why)
			}
			tmp := t.TempDir()
			for _, pkg := range []string{"a", "b"} {
				copyExample(t, ex, filepath.Join(tmp, pkg))
				useImages(t, filepath.Join(tmp, pkg))
			}
			r, results := runExample(t, ex, tmp, "b", true)
			ex.check(t, r, diffTrees(t, tmp, "a", "b"), results)
		})
	}
}

// TestExamplesCover checks that every function has at least two examples
// named <function>-<case> that run it.
func TestExamplesCover(t *testing.T) {
	runs := map[string][]string{}
	for _, ex := range loadExamples(t) {
		for _, fn := range ex.functions {
			if strings.HasPrefix(ex.name, fn+"-") {
				runs[fn] = append(runs[fn], ex.name)
			}
		}
	}
	for _, fn := range knownFunctions(t) {
		if !present(fn) {
			continue
		}
		if got := runs[fn]; len(got) < 2 {
			sort.Strings(got)
			t.Errorf("%s: examples %v; want at least two examples/%s-<case>/ that run it", fn, got, fn)
		}
	}
}
