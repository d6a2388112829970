package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// explainCases are golden cases of issue 31 (explain: true, validate:),
// one per function: their expected infos, warnings and errors must reach
// the user through each client, as each client shows a function's
// results.
var explainCases = []struct{ function, dir string }{
	{"multi-patch", "pkg/multipatch/testdata/explain-every-change"},
	{"multi-patch", "pkg/multipatch/testdata/validate-crd"},
	{"multi-patch", "pkg/multipatch/testdata/error-validate-schema-file"},
	{"podspec-patch", "pkg/podspec/testdata/explain-and-validate"},
	{"structured-replacement", "pkg/replacement/testdata/explain-and-validate"},
	{"merge-values-generator", "pkg/generator/testdata/explain-merge-values"},
}

// TestExplainAndValidateShown runs each case through `kpt fn render` (a
// package whose Kptfile runs the function) and `kustomize build` (the
// config as an exec transformer): every line the golden case expects is
// shown, kpt in its output and its results file, kustomize on stderr, the
// only place it shows a function's messages. A case that expects errors
// (validate: error) fails and leaves the package as it was.
func TestExplainAndValidateShown(t *testing.T) {
	for _, c := range explainCases {
		t.Run(c.function+"/"+filepath.Base(c.dir), func(t *testing.T) {
			bin := requireFunction(t, c.function)
			src := filepath.Join(env.root, c.dir)
			want, failing := explainExpected(t, src)
			t.Run("kpt-render", func(t *testing.T) {
				tmp := t.TempDir()
				pkg := filepath.Join(tmp, "pkg")
				explainPackage(t, src, pkg, bin)
				results := filepath.Join(tmp, "results")
				r := runLimited(t, tmp, kpt(t), "fn", "render", "--allow-exec", "--truncate-output=false", "--results-dir", results, "pkg")
				explainJudge(t, r, failing, want, r.stdout+r.stderr, readTree(t, results))
				if failing {
					got, err := os.ReadFile(filepath.Join(pkg, "input.yaml"))
					must(t, err)
					if raw, _ := os.ReadFile(filepath.Join(src, "input.yaml")); string(got) != string(raw) {
						t.Errorf("a failed run changed the package:\n%s", got)
					}
				}
			})
			t.Run("kustomize", func(t *testing.T) {
				dir := t.TempDir()
				copyDir(t, src, dir)
				rel, err := filepath.Rel(dir, bin)
				must(t, err)
				markExec(t, filepath.Join(dir, "config.yaml"), rel)
				must(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources:\n- input.yaml\ntransformers:\n- config.yaml\n"), 0o644))
				r := runLimited(t, dir, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", ".")
				explainJudge(t, r, failing, want, r.stderr)
			})
		})
	}
}

// explainExpected reads the messages a golden case expects (infos,
// warnings, errors), and whether it expects the run to fail.
func explainExpected(t *testing.T, dir string) (want []string, failing bool) {
	t.Helper()
	for _, name := range []string{"expected-infos.txt", "expected-warnings.txt", "expected-error.txt"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		failing = failing || name == "expected-error.txt"
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			if _, msg, ok := strings.Cut(line, ": "); ok {
				want = append(want, msg)
			}
		}
	}
	if len(want) == 0 {
		t.Fatalf("%s: the case expects no message", dir)
	}
	return want, failing
}

// explainPackage makes a kpt package of a golden case: its input, its
// config (local, so kpt does not render it as a resource) with the files
// beside it, and a Kptfile running bin on them.
func explainPackage(t *testing.T, src, pkg, bin string) {
	t.Helper()
	copyDir(t, src, pkg)
	for _, name := range []string{"expected.yaml", "expected-infos.txt", "expected-warnings.txt", "expected-error.txt"} {
		must(t, os.RemoveAll(filepath.Join(pkg, name)))
	}
	config := filepath.Join(pkg, "config.yaml")
	raw, err := os.ReadFile(config)
	must(t, err)
	local := strings.Replace(string(raw), "metadata:\n", "metadata:\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n", 1)
	must(t, os.WriteFile(config, []byte(local), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, ".krmignore"), []byte("crds/\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte(
		"apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: "+bin+"\n    configPath: config.yaml\n"), 0o644))
}

// explainJudge checks one run: its exit, and every wanted message in each
// of the places the client shows them.
func explainJudge(t *testing.T, r result, failing bool, want []string, shown ...string) {
	t.Helper()
	if failing != (r.code != 0) {
		t.Fatalf("exit %d, want failure %v\n%s", r.code, failing, r)
	}
	for i, place := range shown {
		for _, msg := range want {
			if !strings.Contains(place, msg) {
				t.Errorf("place %d of the run's output lacks %q\n%s\n%s", i, msg, r, place)
			}
		}
	}
}
