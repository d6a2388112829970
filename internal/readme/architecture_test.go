package readme

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureListsEveryPackage keeps docs/architecture.md's tree true:
// every package under pkg/ and internal/ with code of its own has its line,
// and every package named there exists.
func TestArchitectureListsEveryPackage(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, l := range drawing(t, string(text)) {
		listed[l.pkg] = true
	}
	found := map[string]bool{}
	for _, top := range []string{"pkg", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if strings.Contains(rel, "testdata") || strings.Contains(rel, "/internal/") || rel == "internal/readme" {
				return nil // test data, a package's own internals, this test
			}
			if hasCode(t, path) {
				found[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for p := range found {
		if !listed[p] {
			t.Errorf("docs/architecture.md does not list %s", p)
		}
	}
	for p := range listed {
		if !found[p] {
			t.Errorf("docs/architecture.md lists %s, which has no code", p)
		}
	}
}

// hasCode reports whether dir holds a .go file other than tests.
func hasCode(t *testing.T, dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}
