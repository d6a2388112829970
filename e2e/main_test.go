package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// env is what TestMain prepares once for every test.
var env struct {
	root   string            // the repository root
	work   string            // scratch directory of this run, removed at the end
	bin    string            // work/bin: the binaries built from the current source
	built  map[string]string // function name → binary, for every functions/<name> that builds
	broken map[string]string // function name → why functions/<name> does not build
	ci     bool              // CI=true: missing tools are failures, never skips
}

func TestMain(m *testing.M) {
	code, err := setUp(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		code = 1
	}
	os.Exit(code)
}

func setUp(m *testing.M) (int, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return 0, err
	}
	env.root = root
	env.ci, _ = strconv.ParseBool(os.Getenv("CI"))
	env.work, err = os.MkdirTemp("", "patchwork-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(env.work)
	// Relative exec paths in the demo Kptfile (./bin/<function>) resolve against
	// kpt's working directory: render runs in env.work, so they find these.
	env.bin = filepath.Join(env.work, "bin")
	names, err := presentFunctions()
	if err != nil {
		return 0, err
	}
	buildFunctions(names)
	return m.Run(), nil
}

// presentFunctions lists the functions/<name> directories. A directory that
// exists is a function under test: if it does not build, its tests fail.
func presentFunctions() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(env.root, "functions"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// buildFunctions builds static binaries (as `make build` does, so that the
// images made from them run in scratch) into env.bin, from the source under
// test rather than whatever an earlier `make build` left in bin/. A function
// that does not build fails its own tests, not the others'.
func buildFunctions(names []string) {
	env.built = map[string]string{}
	env.broken = map[string]string{}
	for _, n := range names {
		bin := filepath.Join(env.bin, n)
		cmd := exec.Command(goTool(), "build", "-trimpath", "-o", bin, "./functions/"+n)
		cmd.Dir = env.root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			env.broken[n] = fmt.Sprintf("%v\n%s", err, out)
			continue
		}
		env.built[n] = bin
	}
}

func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// requireFunction returns the binary of a function. It skips the test when
// functions/<name> does not exist yet (nothing else may skip a function) and
// fails it when the function does not build.
func requireFunction(t *testing.T, name string) string {
	t.Helper()
	if why, ok := env.broken[name]; ok {
		t.Fatalf("functions/%s does not build: %s", name, why)
	}
	bin, ok := env.built[name]
	if !ok {
		t.Skipf("functions/%s does not exist yet", name)
	}
	return bin
}

// present reports whether functions/<name> exists (built or not).
func present(name string) bool {
	_, built := env.built[name]
	_, broken := env.broken[name]
	return built || broken
}

// knownFunctions is every function the repository mentions: functions/
// directories, fixture directories and the demo pipeline. Sorted.
func knownFunctions(t *testing.T) []string {
	t.Helper()
	set := map[string]bool{}
	for n := range env.built {
		set[n] = true
	}
	for n := range env.broken {
		set[n] = true
	}
	for _, n := range fixtureFunctions(t) {
		set[n] = true
	}
	for _, n := range demoFunctions(t) {
		set[n] = true
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// tool finds a client on PATH. Absent is a failure with the way to install it.
func tool(t *testing.T, name, install string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	t.Fatalf("%s is not installed: %s", name, install)
	return ""
}

func kpt(t *testing.T) string {
	return tool(t, "kpt", "see https://kpt.dev/installation/ (CI has it at /usr/bin/kpt)")
}

// kustomize is the pinned kustomize that `make tools` (build/tools.sh) builds
// into bin/tools: $KUSTOMIZE, as make passes it, or bin/tools/kustomize. One
// a developer installed by hand is never used, so every machine tests the
// same version.
func kustomize(t *testing.T) string {
	t.Helper()
	p := os.Getenv("KUSTOMIZE")
	if p == "" {
		p = filepath.Join(env.root, "bin", "tools", "kustomize")
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("kustomize is not at %s: run `make tools` (builds the pinned kustomize v5.8.2 into bin/tools)", p)
	}
	return p
}

// podman returns podman's path. Without podman the image tests are skipped
// on a developer's machine, but fail in CI (CI=true), which must run them;
// -short skips them everywhere.
func podman(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("image tests skipped by -short (make test-short)")
	}
	p, err := exec.LookPath("podman")
	if err != nil {
		if env.ci {
			t.Fatal("podman is not installed, and CI must run the image tests (apt-get install podman runc)")
		}
		t.Skip("podman is not installed: image tests skipped (apt-get install podman runc); in CI this fails")
	}
	return p
}

// containersConf is the podman configuration every podman call here uses:
// runc and ulimits our machines accept (see build/containers.conf).
func containersConf() string {
	return "CONTAINERS_CONF=" + filepath.Join(env.root, "build", "containers.conf")
}

// result is one finished command.
type result struct {
	cmd            string
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return fmt.Sprintf("$ %s\nexit %d\n--- stdout\n%s\n--- stderr\n%s", r.cmd, r.code, r.stdout, r.stderr)
}

// run runs a command in dir with extra environment variables and stdin.
// Failing to start is fatal; a non-zero exit is the caller's to judge.
func run(t *testing.T, dir string, extraEnv []string, stdin []byte, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), extraEnv...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{cmd: name + " " + strings.Join(args, " "), stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s: %v", r.cmd, err)
	}
	return r
}
