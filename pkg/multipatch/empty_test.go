package multipatch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// An empty or comments-only patch file is skipped with an info result
// naming the entry and the file; a missing file stays an error.
func TestEmptyPatchFiles(t *testing.T) {
	dir := "testdata/empty-patch-files-are-skipped"
	input, err := os.ReadFile(filepath.Join(dir, "input.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, outcome := fnruntest.Run(t, Function, filepath.Join(dir, "config.yaml"), input)
	if outcome.Failed {
		t.Fatalf("failed: %v", outcome.Results)
	}
	var infos []string
	for _, r := range outcome.Results {
		if r.Severity == framework.Info {
			infos = append(infos, r.Message)
		}
	}
	got := strings.Join(infos, "\n")
	for _, want := range []string{
		`patches[0]: patch file "patches/empty.yaml" is empty (or holds only comments); skipped`,
		`patches[1]: patch file "patches/comments.yaml" is empty (or holds only comments); skipped`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("info results lack %q; got:\n%s", want, got)
		}
	}

	tmp := t.TempDir()
	config := filepath.Join(tmp, "config.yaml")
	if err := os.WriteFile(config, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: m}\npatches:\n- path: missing.yaml\n  target: {kind: Deployment}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, outcome = fnruntest.Run(t, Function, config, input)
	if !outcome.Failed || len(outcome.Results) == 0 || !strings.Contains(outcome.Results[0].Message, `"missing.yaml"`) {
		t.Errorf("a missing patch file must be an error naming it; got failed=%v %v", outcome.Failed, outcome.Results)
	}
}
