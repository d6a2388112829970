package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestKptEvalSecretsStayOut runs the cases that hold secret values (a
// secret-values.txt beside config.yaml lists them) through `kpt fn eval
// --exec` and checks that none of those values reaches kpt's results file,
// its stdout or its stderr, where CI logs would keep them.
func TestKptEvalSecretsStayOut(t *testing.T) {
	checked := 0
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		raw, err := os.ReadFile(filepath.Join(f.dir, "secret-values.txt"))
		if err != nil {
			return // no secret values in this case
		}
		checked++
		tmp := t.TempDir()
		r, _, results := evalCase(t, f, tmp, nil, "--exec", bin)
		if len(results) == 0 {
			t.Fatalf("kpt reported no results; the case should fail\n%s", r)
		}
		file, err := os.ReadFile(filepath.Join(tmp, "results", "results.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range strings.Fields(string(raw)) {
			for what, text := range map[string]string{"results file": string(file), "stdout": r.stdout, "stderr": r.stderr} {
				if strings.Contains(text, secret) {
					t.Errorf("kpt's %s carries the secret value %q:\n%s", what, secret, text)
				}
			}
		}
	})
	if checked < 2 {
		t.Errorf("%d cases with secret values ran; want the structured-replacement and merge-values-generator ones", checked)
	}
}

// TestKustomizeSecretsStayOut builds the cases that hold secret values with
// kustomize (exec functions) and checks that none of the values reaches
// stderr, where kustomize shows a function's messages, nor the output of a
// failed build. (A successful build prints the resources, which hold them.)
func TestKustomizeSecretsStayOut(t *testing.T) {
	kz := kustomize(t)
	checked := 0
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		secrets := caseSecrets(t, f)
		if secrets == nil {
			return
		}
		f.skip(t, "kustomize")
		checked++
		dir := t.TempDir()
		copyDir(t, f.dir, dir)
		rel, err := filepath.Rel(dir, bin)
		must(t, err)
		markExec(t, filepath.Join(dir, "config.yaml"), rel)
		var k strings.Builder
		k.WriteString("resources:\n")
		for _, file := range yamlFiles(t, filepath.Join(dir, "package")) {
			k.WriteString("- package/" + file + "\n")
		}
		k.WriteString(f.harness.Kustomize + ":\n- config.yaml\n")
		must(t, os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(k.String()), 0o644))
		r := run(t, dir, nil, nil, kz, "build", "--enable-alpha-plugins", "--enable-exec", ".")
		shown := r.stderr
		if r.code != 0 {
			shown += r.stdout
		}
		for _, secret := range secrets {
			if strings.Contains(shown, secret) {
				t.Errorf("kustomize shows the secret value %q\n%s", secret, r)
			}
		}
	})
	if checked < 3 {
		t.Errorf("%d cases with secret values ran under kustomize; want one per route", checked)
	}
}

// TestKptRenderSecretsStayOut runs the cases that hold secret values as a
// Kptfile pipeline step (`kpt fn render --allow-exec`) and checks that none
// of the values reaches kpt's results file, stdout or stderr.
func TestKptRenderSecretsStayOut(t *testing.T) {
	checked := 0
	forEachCase(t, func(t *testing.T, f *fixture, bin string) {
		secrets := caseSecrets(t, f)
		if secrets == nil {
			return
		}
		checked++
		tmp := t.TempDir()
		pkg := filepath.Join(tmp, "pkg")
		copyDir(t, f.pkg(), pkg)
		// the config and the files it names, in a directory of the package
		copyDir(t, f.dir, filepath.Join(pkg, "fns"))
		must(t, os.RemoveAll(filepath.Join(pkg, "fns", "package")))
		must(t, os.RemoveAll(filepath.Join(pkg, "fns", ".expected")))
		must(t, os.WriteFile(filepath.Join(pkg, "fns", "config.yaml"), []byte(strings.Replace(readFile(t, f.config()),
			"metadata:\n", "metadata:\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n", 1)), 0o644))
		must(t, os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte(
			"apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: "+bin+"\n    configPath: fns/config.yaml\n"), 0o644))
		results := filepath.Join(tmp, "results")
		r := run(t, tmp, nil, nil, kpt(t), "fn", "render", "--allow-exec", "--results-dir", results, "pkg")
		file := readTree(t, results)
		if file == "" {
			t.Fatalf("kpt wrote no results\n%s", r)
		}
		for _, secret := range secrets {
			for what, text := range map[string]string{"results file": file, "stdout": r.stdout, "stderr": r.stderr} {
				if strings.Contains(text, secret) {
					t.Errorf("kpt's %s carries the secret value %q:\n%s", what, secret, text)
				}
			}
		}
	})
	if checked < 3 {
		t.Errorf("%d cases with secret values ran under kpt fn render; want one per route", checked)
	}
}

// caseSecrets returns the values of a case's secret-values.txt, or nil.
func caseSecrets(t *testing.T, f *fixture) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(f.dir, "secret-values.txt"))
	if err != nil {
		return nil
	}
	return strings.Fields(string(raw))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return string(b)
}
