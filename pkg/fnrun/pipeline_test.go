package fnrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --check-pipeline DIR: exit 0 for a package whose pipeline runs only the
// functions by name, 1 naming each entry that runs anything else, 2 for
// a usage error; the functions are this one and those TakenBy names.
func TestCheckPipeline(t *testing.T) {
	f := Function{Name: "multi-patch", TakenBy: map[string]string{"a/B": "podspec-patch", "a/C": "multi-patch"}}
	dir := t.TempDir()
	kptfile := "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: p}\npipeline:\n  mutators:\n  - exec: podspec-patch\n  - exec: multi-patch\n"
	if err := os.WriteFile(filepath.Join(dir, "Kptfile"), []byte(kptfile), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Command(f, []string{CheckPipelineFlag, dir}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "run only patchwork's functions") {
		t.Fatalf("a trusted package: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	if err := os.WriteFile(filepath.Join(dir, "Kptfile"), []byte(kptfile+"  - exec: ./pwn.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	code := Command(f, []string{CheckPipelineFlag, dir}, nil, &out, &errOut)
	if want := `Kptfile: pipeline.mutators[2]: exec "./pwn.sh" is not one of the functions trusted here (multi-patch, podspec-patch)`; code != 1 || !strings.Contains(errOut.String(), want) {
		t.Errorf("a package's own program: exit %d, want 1 and %q in\n%s", code, want, errOut.String())
	}
	for _, args := range [][]string{{CheckPipelineFlag}, {CheckPipelineFlag, dir, dir}, {CheckPipelineFlag, filepath.Join(dir, "missing")}} {
		errOut.Reset()
		if code := Command(f, args, nil, &out, &errOut); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, errOut.String())
		}
	}
}
