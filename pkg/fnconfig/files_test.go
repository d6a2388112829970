package fnconfig

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// chdir runs the rest of the test in dir.
func chdir(t *testing.T, dir string) {
	t.Helper()
	old, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(old) })
}

// A link out of the root is refused whether the root is given absolute,
// relative (standalone with `fn sub/config.yaml`) or empty (the working
// directory: kpt fn eval, kustomize). The relative forms once let every
// link through: filepath.Rel cannot compare "." with "/etc/passwd".
func TestReadFileRefusesLinksOutOfARelativeRoot(t *testing.T) {
	base := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	os.WriteFile(secret, []byte("host secret"), 0o644)
	cfg := filepath.Join(base, "cfg")
	os.MkdirAll(filepath.Join(cfg, "sub"), 0o755)
	os.WriteFile(filepath.Join(cfg, "ok.txt"), []byte("ok"), 0o644)
	os.Symlink(secret, filepath.Join(cfg, "abs-link"))
	rel, _ := filepath.Rel(cfg, secret)
	os.Symlink(rel, filepath.Join(cfg, "rel-link"))
	os.Symlink(outside, filepath.Join(cfg, "dir-link"))
	os.Symlink("../ok.txt", filepath.Join(cfg, "sub", "inside-link"))
	chdir(t, base)
	for _, root := range []string{cfg, "cfg", "./cfg/sub/..", ""} {
		if root == "" {
			chdir(t, cfg)
		}
		r := Files{Dir: root}
		for _, bad := range []string{"abs-link", "rel-link", "dir-link/secret"} {
			b, err := r.ReadFile(bad)
			if err == nil {
				t.Errorf("root %q: ReadFile(%q) = %q, want a refusal", root, bad, b)
			} else if !strings.Contains(err.Error(), "outside the config's directory") {
				t.Errorf("root %q: ReadFile(%q): %v", root, bad, err)
			}
		}
		for _, good := range []string{"ok.txt", "sub/inside-link"} {
			if b, err := r.ReadFile(good); err != nil || string(b) != "ok" {
				t.Errorf("root %q: ReadFile(%q) = %q, %v", root, good, b, err)
			}
		}
	}
}

// A root that is itself reached through a link is fine: both sides are
// resolved before they are compared.
func TestReadFileRootThroughALink(t *testing.T) {
	real := t.TempDir()
	os.WriteFile(filepath.Join(real, "ok.txt"), []byte("ok"), 0o644)
	linked := filepath.Join(t.TempDir(), "pkg")
	os.Symlink(real, linked)
	r := Files{Dir: linked}
	if b, err := r.ReadFile("ok.txt"); err != nil || string(b) != "ok" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
}

// Only regular files are read: a link to /dev/zero once read without end,
// a FIFO blocks forever, a directory is no file.
func TestReadFileOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Files{Dir: dir}
	cases := map[string]string{
		"d":    "is a directory",
		"fifo": "is a named pipe (FIFO)",
	}
	// /dev/zero reached from inside: put the device node's link under a
	// root that contains it.
	devRoot := Files{Dir: "/dev"}
	if _, err := devRoot.ReadFile("zero"); err == nil || !strings.Contains(err.Error(), "is a device") {
		t.Errorf("ReadFile(/dev/zero): %v", err)
	}
	for name, want := range cases {
		if _, err := r.ReadFile(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadFile(%q): %v, want %q", name, err, want)
		}
	}
}

func TestReadFileSizeLimit(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big"), make([]byte, DefaultMaxFileSize+1), 0o644)
	os.WriteFile(filepath.Join(dir, "limit"), make([]byte, DefaultMaxFileSize), 0o644)
	r := Files{Dir: dir}
	if b, err := r.ReadFile("limit"); err != nil || len(b) != DefaultMaxFileSize {
		t.Fatalf("a file of exactly the limit: %d bytes, %v", len(b), err)
	}
	_, err := r.ReadFile("big")
	if err == nil || !strings.Contains(err.Error(), `file "big" is larger than the 1Mi limit`) || !strings.Contains(err.Error(), MaxFileSizeEnv) {
		t.Fatalf("over the limit: %v", err)
	}
	t.Setenv(MaxFileSizeEnv, "2Mi")
	if b, err := r.ReadFile("big"); err != nil || len(b) != DefaultMaxFileSize+1 {
		t.Fatalf("raised limit: %d bytes, %v", len(b), err)
	}
	t.Setenv(MaxFileSizeEnv, "10")
	if _, err := r.ReadFile("limit"); err == nil || !strings.Contains(err.Error(), "larger than the 10 bytes limit") {
		t.Fatalf("lowered limit: %v", err)
	}
	t.Setenv(MaxFileSizeEnv, "lots")
	if _, err := r.ReadFile("limit"); err == nil || !strings.Contains(err.Error(), MaxFileSizeEnv+`="lots": want a positive size`) {
		t.Fatalf("bad limit: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1048576": 1 << 20, "512Ki": 512 << 10, "4Mi": 4 << 20, "4MiB": 4 << 20, "1G": 1 << 30, "2 Mi": 2 << 20} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0", "-1", "1.5Mi", "Mi", "1Ti", "99999999999999999999"} {
		if got, err := parseSize(bad); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", bad, got)
		}
	}
}

func TestReadFileStaysInside(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(dir, "p.yaml"), []byte("ok"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret"), []byte("no"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "link"))
	r := Files{Dir: dir}
	if b, err := r.ReadFile("p.yaml"); err != nil || string(b) != "ok" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	for _, bad := range []string{"../x", "/etc/passwd", "a/../../x", "link"} {
		if _, err := r.ReadFile(bad); err == nil {
			t.Errorf("ReadFile(%q) succeeded", bad)
		}
	}
	if _, err := r.ReadFile("missing.yaml"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// Issue 14, "Say where a file was looked for": a missing file names the
// absolute path looked at and why the root is there (the runner's reasons
// for standalone and kpt fn render: pkg/fnrun's lookedfor_test.go).
func TestMissingFileSaysWhereItWasLookedFor(t *testing.T) {
	t.Run("kpt fn eval and kustomize", func(t *testing.T) {
		wd, _ := os.Getwd()
		r := Files{}
		_, err := r.ReadFile("patches/hpa.yaml")
		want := "(looked for " + filepath.Join(wd, "patches", "hpa.yaml") +
			"; relative paths resolve against the working directory: kpt's under kpt fn eval, the kustomization directory under kustomize)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %q", err, want)
		}
	})
	t.Run("container", func(t *testing.T) {
		r := Files{Dir: "/"}
		_, err := r.ReadFile("patchwork-test-missing/hpa.yaml")
		want := "(looked for /patchwork-test-missing/hpa.yaml; relative paths resolve against the working directory, /: " +
			"in a container (kpt fn eval --image) the function sees no host files; mount them, e.g. kpt fn eval " +
			"--mount type=bind,src=$PWD/patchwork-test-missing,dst=/patchwork-test-missing, or run the binary with --exec)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant %q", err, want)
		}
	})
}

// A missing file names the one near it (issue 30): a typo in the file's
// name or in a directory's; never a name outside the config's directory,
// through a link.
func TestMissingFileNamesTheNearest(t *testing.T) {
	base := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(base, "schemas"), 0o755)
	os.WriteFile(filepath.Join(base, "schemas", "pipelines.yaml"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("x"), 0o644)
	os.Symlink(outside, filepath.Join(base, "out"))
	f := Files{Dir: base}
	for rel, want := range map[string]string{
		"schemas/pipeline.yaml": "(did you mean schemas/pipelines.yaml?)",
		"schema/pipelines.yaml": "(did you mean schemas/pipelines.yaml?)",
		"schemas/other.yaml":    "",
		"out/secrets.yaml":      "",
	} {
		_, err := f.ReadFile(rel)
		if err == nil {
			t.Fatalf("%s: read", rel)
		}
		if got := err.Error(); want == "" && strings.Contains(got, "did you mean") || !strings.Contains(got, want) {
			t.Errorf("%s: %v, want %q", rel, err, want)
		}
	}
}
