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
