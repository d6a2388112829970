package fnrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 14, "Say where a file was looked for": a missing file names the
// absolute path looked at and why the root is there, for each client.
func TestMissingFileSaysWhereItWasLookedFor(t *testing.T) {
	read := testFunction(func(r *Request) error {
		_, err := r.Files().ReadFile("patches/hpa.yaml")
		return err
	})
	const cfg = "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n"

	t.Run("standalone", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "config.yaml")
		os.WriteFile(path, []byte(cfg), 0o644)
		var out, errOut bytes.Buffer
		Command(read, []string{path}, strings.NewReader(""), &out, &errOut)
		want := `file "patches/hpa.yaml": no such file or directory (looked for ` + filepath.Join(dir, "patches", "hpa.yaml") +
			"; relative paths resolve against the directory of the config file " + path + ")"
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("got %q\nwant %q", errOut.String(), want)
		}
	})
	t.Run("kpt fn render", func(t *testing.T) {
		pkg := t.TempDir()
		os.MkdirAll(filepath.Join(pkg, "fns"), 0o755)
		os.WriteFile(filepath.Join(pkg, "fns", "c.yaml"), []byte(cfg), 0o644)
		in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n" + indent(cfg+
			"  annotations:\n    internal.config.kubernetes.io/package-path: "+pkg+"\n    internal.config.kubernetes.io/path: fns/c.yaml\n")
		_, o, _ := RunBytes(read, []byte(in))
		want := "(looked for " + filepath.Join(pkg, "fns", "patches", "hpa.yaml") +
			"; relative paths resolve against the config file's directory in the package (kpt fn render))"
		if len(o.Results) == 0 || !strings.Contains(o.Results[0].Message, want) {
			t.Errorf("got %+v\nwant %q", o.Results, want)
		}
	})

}
