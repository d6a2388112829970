package kptpipeline_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/patchwork-krm/patchwork/internal/kptpipeline"
)

// A package whose pipeline runs a script it holds is refused; the
// functions named alone are trusted.
func ExampleUntrusted() {
	dir, _ := os.MkdirTemp("", "package")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "Kptfile"), []byte(`apiVersion: kpt.dev/v1
kind: Kptfile
metadata: {name: shop}
pipeline:
  mutators:
  - exec: multi-patch
    configPath: harden.yaml
  - exec: ./hack/render.sh
`), 0o644)
	problems, _ := kptpipeline.Untrusted(dir, []string{"multi-patch", "podspec-patch"})
	for _, p := range problems {
		fmt.Println(p)
	}
	// Output:
	// Kptfile: pipeline.mutators[1]: exec "./hack/render.sh" is not one of the functions trusted here (multi-patch, podspec-patch), named alone (no path, no arguments): no other program runs here, the package's own least of all
}
