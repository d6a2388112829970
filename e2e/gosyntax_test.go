package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// TestNoGoSyntaxInExpectations scans every message the tests expect (the
// golden cases' expected-error.txt, -warnings.txt and -infos.txt, the e2e
// cases' and examples' .expected files) for Go internals a user must never
// read: map[string]interface {}, %!v, <nil>, interface {} (fnruntest.Jargon).
// An expectation that holds one would make a test demand the leak.
func TestNoGoSyntaxInExpectations(t *testing.T) {
	// the rule catches what issue 19 found
	if fnruntest.Jargon(`base value is not valid YAML: invalid map key: map[string]interface {}{"PROJECT_ID":interface {}(nil)}`) == "" {
		t.Fatal("Jargon misses Go map syntax")
	}
	scanned := 0
	err := filepath.WalkDir(env.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(env.root, path)
		if d.IsDir() {
			if name := d.Name(); rel != "." && (strings.HasPrefix(name, ".") && name != ".expected" || name == "bin" || name == "fuzz") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		expected := strings.HasPrefix(name, "expected-") && strings.HasSuffix(name, ".txt") ||
			filepath.Base(filepath.Dir(path)) == ".expected"
		if !expected {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		scanned++
		for i, line := range strings.Split(string(raw), "\n") {
			if j := fnruntest.Jargon(line); j != "" {
				t.Errorf("%s:%d: Go syntax %q in an expected message: %s", rel, i+1, j, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Errorf("only %d expectation files scanned", scanned)
	}
}
