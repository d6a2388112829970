package fnconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testConfig = "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n"

// withClaim is testConfig with the annotations kpt fn render sets (or an
// author forges): the package directory and the config's path.
func withClaim(pkg, path string) string {
	return testConfig + `  annotations:
    internal.config.kubernetes.io/package-path: '` + pkg + `'
    internal.config.kubernetes.io/path: '` + path + `'
`
}

// rootOf returns the root PackageDir gives a config and what reading rel
// below it gave.
func rootOf(t *testing.T, config, rel string) (string, []byte, error) {
	t.Helper()
	dir := PackageDir(mustParse(t, config))
	got, err := Files{Dir: dir}.ReadFile(rel)
	return dir, got, err
}

// A config that claims package-path: / and path: etc/x.yaml once made
// `passwd` read /etc/passwd (under kpt fn eval --fn-config and kustomize,
// which pass the config's annotations as written). No /etc/x.yaml holds the
// config, so the claim is ignored.
func TestForgedPackagePathIsIgnored(t *testing.T) {
	chdir(t, t.TempDir())
	for _, claim := range [][2]string{
		{"/", "etc/x.yaml"},
		{"/", "etc/passwd"},       // a file, but not the config
		{"/etc", "passwd"},        // the same
		{"/", "etc"},              // a directory
		{"/", "dev/zero"},         // a device: never read
		{"relative", "x.yaml"},    // kpt always gives an absolute package path
		{"/tmp", "../etc/x.yaml"}, // a path leaving the package
	} {
		dir, got, err := rootOf(t, withClaim(claim[0], claim[1]), "passwd")
		if dir != "" || err == nil {
			t.Errorf("claim %v: root %q, read %d bytes (%v); want the working directory and no passwd", claim, dir, len(got), err)
		}
	}
}

// The claim holds when the named file is a regular file inside the named
// package holding the config (as under kpt fn render): the root is the
// file's directory.
func TestPackagePathConfirmedByTheConfigFile(t *testing.T) {
	pkg := t.TempDir()
	os.MkdirAll(filepath.Join(pkg, "fns"), 0o755)
	os.WriteFile(filepath.Join(pkg, "fns", "config.yaml"), []byte("# the config\n"+testConfig), 0o644)
	os.WriteFile(filepath.Join(pkg, "fns", "data.txt"), []byte("data"), 0o644)
	os.WriteFile(filepath.Join(pkg, "fns", "other.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\n---\n"+testConfig), 0o644)
	dir, got, err := rootOf(t, withClaim(pkg, "fns/config.yaml"), "data.txt")
	if dir != filepath.Join(pkg, "fns") || err != nil || string(got) != "data" {
		t.Fatalf("root %q, read %q, %v", dir, got, err)
	}
	// a file of several documents, the config among them
	if dir, _, _ := rootOf(t, withClaim(pkg, "fns/other.yaml"), "data.txt"); dir != filepath.Join(pkg, "fns") {
		t.Errorf("multi-document file: root %q", dir)
	}
	// a file that holds another config is no confirmation
	os.WriteFile(filepath.Join(pkg, "fns", "wrong.yaml"), []byte(strings.Replace(testConfig, "name: t", "name: u", 1)), 0o644)
	if dir, _, _ := rootOf(t, withClaim(pkg, "fns/wrong.yaml"), "data.txt"); dir != "" {
		t.Errorf("another config's file: root %q", dir)
	}
}

// A confirmed file reached through a link out of the claimed package does
// not count: the package named must hold it.
func TestPackagePathLinkOutIsIgnored(t *testing.T) {
	pkg, elsewhere := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, "config.yaml"), []byte(testConfig), 0o644)
	os.Symlink(elsewhere, filepath.Join(pkg, "out"))
	if dir, _, _ := rootOf(t, withClaim(pkg, "out/config.yaml"), "x"); dir != "" {
		t.Errorf("root %q, want the working directory", dir)
	}
}

// Malformed configs reach PackageDir before the kind is checked; it
// must not panic on them (kyaml's getters do).
func TestPackageConfigDirMalformed(t *testing.T) {
	for _, cfg := range []string{"[1]", "[a, b]", "{metadata: [1]}", "{metadata: {annotations: [1]}}", "x", "{metadata: {annotations: {internal.config.kubernetes.io/package-path: [1]}}}"} {
		n := mustParse(t, cfg)
		if got := PackageDir(n); got != "" {
			t.Errorf("%s: %q", cfg, got)
		}
	}
}
