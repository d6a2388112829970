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
		_, err := r.ReadFile("patches/hpa.yaml")
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
	t.Run("kpt fn eval and kustomize", func(t *testing.T) {
		wd, _ := os.Getwd()
		r := &Request{}
		_, err := r.ReadFile("patches/hpa.yaml")
		want := "(looked for " + filepath.Join(wd, "patches", "hpa.yaml") +
			"; relative paths resolve against the working directory: kpt's under kpt fn eval, the kustomization directory under kustomize)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %q", err, want)
		}
	})
	t.Run("container", func(t *testing.T) {
		r := &Request{ConfigDir: "/"}
		_, err := r.ReadFile("patchwork-test-missing/hpa.yaml")
		want := "(looked for /patchwork-test-missing/hpa.yaml; relative paths resolve against the working directory, /: " +
			"in a container (kpt fn eval --image) the function sees no host files; mount them, e.g. kpt fn eval " +
			"--mount type=bind,src=$PWD/patchwork-test-missing,dst=/patchwork-test-missing, or run the binary with --exec)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %q", err, want)
		}
	})
}
