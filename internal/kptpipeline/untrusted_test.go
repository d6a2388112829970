package kptpipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var trusted = []string{"merge-values-generator", "multi-patch", "podspec-patch", "structured-replacement"}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const head = "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: p}\n"

// Every way a Kptfile could run something else is refused, read as kpt
// reads it: an alias or << brings an entry's fields, every document
// counts, nested packages and hidden directories too.
func TestUntrusted(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"Kptfile": head + `pipeline:
  mutators:
  - exec: multi-patch
    configPath: a.yaml
    name: harden
    selectors: [{kind: Deployment}]
    exclude: [{kind: Secret}]
  - &own {exec: "./hack/gen.sh"}
  - image: ghcr.io/example/fn:v1
  - exec: "multi-patch --flag"
  - exec: 7
  - configPath: nothing-runs.yaml
  validators:
  - <<: *own
    configMap: {a: b}
  - exec: structured-replacement
    tag: v1
`,
		"nested/Kptfile":  head + "pipeline:\n  mutators:\n  - exec: /bin/sh\n",
		".hidden/Kptfile": "---\n" + head + "---\n" + head + "pipeline:\n  validators:\n  - exec: ../tool\n",
		"broken/Kptfile":  head + "pipeline:\n  mutators: [{exec: a, exec: b}]\n",
		"fine/Kptfile":    head + "pipeline:\n  mutators:\n  - exec: podspec-patch\n",
		"fine/other.yaml": "pipeline: {mutators: [{exec: ./not-a-kptfile.sh}]}\n",
	})
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	problems, err := Untrusted(dir, trusted)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.File+" | "+p.Entry+" | "+p.Msg[:min(len(p.Msg), 40)])
	}
	want := []string{
		`.hidden/Kptfile | pipeline.validators[0] | exec "../tool" is not one of the functio`,
		`Kptfile | pipeline.mutators[1] | exec "./hack/gen.sh" is not one of the f`,
		`Kptfile | pipeline.mutators[2] | image "ghcr.io/example/fn:v1": a contain`,
		`Kptfile | pipeline.mutators[3] | exec "multi-patch --flag" is not one of `,
		`Kptfile | pipeline.mutators[4] | exec 7 is not one of the functions trust`,
		`Kptfile | pipeline.mutators[5] | no exec: only the functions trusted here`,
		`Kptfile | pipeline.validators[0] | exec "./hack/gen.sh" is not one of the f`,
		`Kptfile | pipeline.validators[1] | field "tag": not a field this check know`,
		`broken/Kptfile |  | cannot be read as kpt reads a Kptfile: u`,
		`elsewhere |  | a symbolic link to a directory, which ma`,
		`nested/Kptfile | pipeline.mutators[0] | exec "/bin/sh" is not one of the functio`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A package that runs only the functions by name has no problem; a
// directory that is not there is an error.
func TestTrusted(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"Kptfile": head + "pipeline:\n  mutators:\n  - exec: multi-patch\n  validators:\n  - {exec: merge-values-generator}\n"})
	if problems, err := Untrusted(dir, trusted); err != nil || len(problems) > 0 {
		t.Errorf("got %v, %v", problems, err)
	}
	if _, err := Untrusted(filepath.Join(dir, "missing"), trusted); err == nil {
		t.Error("a missing directory is an error")
	}
}
