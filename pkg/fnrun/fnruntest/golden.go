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

// RunGolden runs every case directory below dir in two modes, the subtests
// <case>/standalone and <case>/sdk:
//
//   - standalone applies the function to the case as the command line does
//     (Run), then again to its own output, which must not change;
//   - sdk runs it as a Go program built on the kpt SDK does
//     (fn.Execute(sdk.Processor(f)) on the case as one ResourceList).
//
// Both must meet the same expectations: expected.yaml byte for byte, or
// every line of expected-error.txt; the same warnings and infos; and the
// SDK's results must equal the standalone run's, field for field.
//
// The sdk mode runs every case, not a chosen few: whether the adapter
// carries a resource, a message or a file path unchanged depends on the
// case, so a subset would be a guess at where it could go wrong, and the
// whole set costs little (a few milliseconds a case: under a second for
// the four functions' cases together). The one allowed
// difference is kept in the case itself: a case whose output holds a YAML
// merge key keeps an expected-sdk.yaml, because the SDK re-parses every
// object the function returns and writes its merge keys "!!merge <<" where
// the standalone run writes "<<" (the same to every YAML reader).
// UPDATE_GOLDEN and the idempotence check belong to the standalone mode.
func RunGolden(t *testing.T, f fnrun.Function, dir string) {
	t.Helper()
	for _, c := range caseDirs(t, dir) {
		t.Run(filepath.Base(c), func(t *testing.T) {
			t.Run("standalone", func(t *testing.T) { runStandalone(t, f, c) })
			t.Run("sdk", func(t *testing.T) { runSDKCase(t, f, c) })
		})
	}
}

// caseDirs lists the case directories below dir, sorted; testdata/fuzz
// holds go test's fuzz corpora, not a case.
func caseDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "fuzz" {
			cases = append(cases, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(cases)
	if len(cases) == 0 {
		t.Fatalf("no golden cases in %s", dir)
	}
	return cases
}

// Run applies f with the config file to a YAML stream of resources, as the
// standalone command does, and returns the output stream and the outcome.
func Run(t testing.TB, f fnrun.Function, configPath string, input []byte) ([]byte, fnrun.Outcome) {
	t.Helper()
	config, err := yaml.ReadFile(configPath)
	if err != nil {
		t.Fatalf("%s: %v", configPath, err)
	}
	in, err := rlio.ReadStream(input)
	if err != nil {
		t.Fatalf("input: %v", err)
	}
	req := &fnrun.Request{Config: config, ConfigDir: filepath.Dir(configPath)}
	out, outcome, err := fnrun.RunStream(f, req, in)
	if err != nil {
		t.Fatal(err)
	}
	return out, outcome
}

// runStandalone runs a case as the command line does, checks the outcome,
// and runs the function again on its output, which must not change.
func runStandalone(t *testing.T, f fnrun.Function, dir string) {
	input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	configPath := filepath.Join(dir, "config.yaml")
	got, outcome := Run(t, f, configPath, input)
	updateGolden(t, dir, "expected.yaml", got, outcome.Failed)
	if !checkOutcome(t, dir, "expected.yaml", got, outcome.Results, outcome.Failed, nil) || exists(filepath.Join(dir, "not-idempotent")) {
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

// updateGolden writes a successful run's output to the case's file named
// expected when UPDATE_GOLDEN is set, unless the case expects an error.
func updateGolden(t *testing.T, dir, expected string, got []byte, failed bool) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "" || failed || exists(filepath.Join(dir, "expected-error.txt")) {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, expected), got, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkOutcome holds one run of a case (its output stream, results and
// whether it failed) to the case's expectations, the output to the file
// named expected. It reports whether the run was meant to succeed and did,
// so that its output can be run again.
//
// form, when set, is applied to both outputs before they are compared.
func checkOutcome(t *testing.T, dir, expected string, got []byte, results framework.Results, failed bool, form func(testing.TB, []byte) []byte) bool {
	t.Helper()
	CheckMessages(t, results)
	if want, err := os.ReadFile(filepath.Join(dir, "expected-error.txt")); err == nil {
		if strings.TrimSpace(string(want)) == "" {
			t.Fatalf("expected-error.txt is empty: name the error the case is about (any failure would pass)")
		}
		if !failed {
			t.Fatalf("expected the run to fail; it succeeded with output:\n%s", got)
		}
		checkLines(t, "error", string(want), messages(results, framework.Error))
		return false
	}
	if failed {
		t.Fatalf("run failed:\n%s", strings.Join(messages(results, ""), "\n"))
	}
	checkFindings(t, dir, results)
	checkOutput(t, filepath.Join(dir, expected), got, form)
	return true
}

// checkFindings holds the warnings and infos of a run that succeeded to
// the case's expected-warnings.txt (none without it) and
// expected-infos.txt (any without it).
func checkFindings(t *testing.T, dir string, results framework.Results) {
	t.Helper()
	warnings := messages(results, framework.Warning)
	if want, err := os.ReadFile(filepath.Join(dir, "expected-warnings.txt")); err == nil {
		checkLines(t, "warning", string(want), warnings)
	} else if len(warnings) > 0 {
		t.Errorf("unexpected warnings (add expected-warnings.txt if they are right):\n%s", strings.Join(warnings, "\n"))
	}
	if want, err := os.ReadFile(filepath.Join(dir, "expected-infos.txt")); err == nil {
		checkLines(t, "info", string(want), messages(results, framework.Info))
	}
}

// checkOutput holds a run's output to the file expectedPath.
func checkOutput(t *testing.T, expectedPath string, got []byte, form func(testing.TB, []byte) []byte) {
	t.Helper()
	want, err := os.ReadFile(expectedPath)
	if err != nil {
		t.Fatalf("%v (UPDATE_GOLDEN=1 writes it; then check it by hand)", err)
	}
	if form != nil {
		got, want = form(t, got), form(t, want)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", expectedPath, got, want)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
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
