package fnconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func yamlFiles(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".json")
}

func TestReadTree(t *testing.T) {
	cfg := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("host secret"), 0o644)
	os.MkdirAll(filepath.Join(cfg, "schemas", "nested"), 0o755)
	os.MkdirAll(filepath.Join(cfg, "schemas", ".git"), 0o755)
	for name, text := range map[string]string{
		"schemas/b.yaml":        "b",
		"schemas/a.json":        "a",
		"schemas/nested/c.yaml": "c",
		"schemas/README.md":     "not a schema",
		"schemas/.hidden.yaml":  "hidden",
		"schemas/.git/x.yaml":   "git",
		"one.yaml":              "one",
	} {
		os.WriteFile(filepath.Join(cfg, name), []byte(text), 0o644)
	}
	os.Symlink(filepath.Join(cfg, "schemas"), filepath.Join(cfg, "schemas", "nested", "loop"))
	r := Files{Dir: cfg}
	files, err := r.ReadTree("schemas/", yamlFiles)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path+"="+string(f.Data))
	}
	if want := "schemas/a.json=a schemas/b.yaml=b schemas/nested/c.yaml=c"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if files, err := r.ReadTree("one.yaml", yamlFiles); err != nil || len(files) != 1 || string(files[0].Data) != "one" {
		t.Errorf("a file: %v %v", files, err)
	}

	os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(cfg, "schemas", "leak.yaml"))
	if _, err := r.ReadTree("schemas", yamlFiles); err == nil || !strings.Contains(err.Error(), "outside the config's directory") {
		t.Errorf("a link out of the root inside the directory: %v", err)
	}
	os.Symlink(outside, filepath.Join(cfg, "out"))
	for _, bad := range []string{"out", "../", "/etc"} {
		if _, err := r.ReadTree(bad, yamlFiles); err == nil {
			t.Errorf("%s: read", bad)
		}
	}
}

func TestReadTreeBoundsTheFiles(t *testing.T) {
	cfg := t.TempDir()
	for i := 0; i <= MaxTreeFiles; i++ {
		os.WriteFile(filepath.Join(cfg, fmt.Sprintf("f%04d.yaml", i)), nil, 0o644)
	}
	r := Files{Dir: filepath.Dir(cfg)}
	if _, err := r.ReadTree(filepath.Base(cfg), yamlFiles); err == nil || !strings.Contains(err.Error(), "more than 1000 files") {
		t.Errorf("got %v", err)
	}
}
