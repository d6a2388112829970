package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHelpPrintsReference: a built binary's --help (what `kpt fn doc
// --image` prints) is the usage followed by the function's own page,
// functions/<name>/README.md, as it is in the source tree: the page is
// embedded at build time, so an edit the binary lacks fails here. Every
// page has the catalog's FunctionConfig reference section.
func TestHelpPrintsReference(t *testing.T) {
	for _, name := range []string{"multi-patch", "podspec-patch", "structured-replacement", "merge-values-generator"} {
		t.Run(name, func(t *testing.T) {
			bin := requireFunction(t, name)
			page, err := os.ReadFile(filepath.Join(env.root, "functions", name, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			r := run(t, env.work, nil, nil, bin, "--help")
			if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || !strings.HasSuffix(r.stdout, "\n"+string(page)) {
				t.Fatalf("--help is not the usage followed by functions/%s/README.md:\n%s", name, r)
			}
			if !strings.Contains(r.stdout, "\n## FunctionConfig reference\n") {
				t.Errorf("--help has no FunctionConfig reference section")
			}
		})
	}
}
