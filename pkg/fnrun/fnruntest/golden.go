package fnruntest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// RunGolden runs every case directory below dir.
func RunGolden(t *testing.T, f fnrun.Function, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		// testdata/fuzz holds go test's fuzz corpora, not a case
		if e.IsDir() && e.Name() != "fuzz" {
			cases = append(cases, e.Name())
		}
	}
	sort.Strings(cases)
	if len(cases) == 0 {
		t.Fatalf("no golden cases in %s", dir)
	}
	for _, c := range cases {
		caseDir := filepath.Join(dir, c)
		t.Run(c, func(t *testing.T) { runCase(t, f, caseDir) })
	}
}

// Run applies f with the config file to a YAML stream of resources, as the
// standalone command does, and returns the output stream and the outcome.
func Run(t testing.TB, f fnrun.Function, configPath string, input []byte) ([]byte, fnrun.Outcome) {
	t.Helper()
	config, err := yaml.ReadFile(configPath)
	if err != nil {
		t.Fatalf("%s: %v", configPath, err)
	}
	items, err := rlio.ReadStream(bytes.NewReader(input))
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	req := &fnrun.Request{Items: items, Config: config, ConfigDir: filepath.Dir(configPath)}
	outcome := f.Process(req)
	var out bytes.Buffer
	if !outcome.Failed {
		if err := rlio.WriteStream(&out, req.Items); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes(), outcome
}

func runCase(t *testing.T, f fnrun.Function, dir string) {
	input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	configPath := filepath.Join(dir, "config.yaml")
	got, outcome := Run(t, f, configPath, input)
	CheckMessages(t, outcome.Results)

	if want, err := os.ReadFile(filepath.Join(dir, "expected-error.txt")); err == nil {
		if !outcome.Failed {
			t.Fatalf("expected the run to fail; it succeeded with output:\n%s", got)
		}
		checkLines(t, "error", string(want), messages(outcome.Results, framework.Error))
		return
	}
	if outcome.Failed {
		t.Fatalf("run failed:\n%s", strings.Join(messages(outcome.Results, ""), "\n"))
	}
	warnings := messages(outcome.Results, framework.Warning)
	if want, err := os.ReadFile(filepath.Join(dir, "expected-warnings.txt")); err == nil {
		checkLines(t, "warning", string(want), warnings)
	} else if len(warnings) > 0 {
		t.Errorf("unexpected warnings (add expected-warnings.txt if they are right):\n%s", strings.Join(warnings, "\n"))
	}

	if want, err := os.ReadFile(filepath.Join(dir, "expected-infos.txt")); err == nil {
		checkLines(t, "info", string(want), messages(outcome.Results, framework.Info))
	}

	expectedPath := filepath.Join(dir, "expected.yaml")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(expectedPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it; then check it by hand)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", expectedPath, got, want)
	}

	if _, err := os.Stat(filepath.Join(dir, "not-idempotent")); err == nil {
		return
	}
	again, outcome := Run(t, f, configPath, got)
	if outcome.Failed {
		t.Fatalf("second run on the output failed:\n%s", strings.Join(messages(outcome.Results, ""), "\n"))
	}
	if !bytes.Equal(again, got) {
		t.Fatalf("not idempotent: a second run changed the output\n--- second run ---\n%s", again)
	}
}

func messages(rs framework.Results, sev framework.Severity) []string {
	var out []string
	for _, r := range rs {
		if sev == "" || r.Severity == sev {
			out = append(out, string(r.Severity)+": "+r.Message)
		}
	}
	return out
}

func checkLines(t *testing.T, what, want string, got []string) {
	t.Helper()
	all := strings.Join(got, "\n")
	for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if !strings.Contains(all, line) {
			t.Errorf("expected %s results to contain %q; got:\n%s", what, line, all)
		}
	}
}

// ReadResources reads a file of YAML resources as they are, for tests that
// compare with saved output.
func ReadResources(t testing.TB, path string) []*yaml.RNode {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(b), OmitReaderAnnotations: true}).Read()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nodes
}
