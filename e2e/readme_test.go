package e2e

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The README's commands, run as a new user would run them (docShell: a
// scratch checkout after `make build`, a HOME and PATH of their own).

// TestReadmeMake: `make demo` and `make build` run; the other targets the
// README lists (make test runs this very test, bench and fuzz take long,
// generate needs the network) must exist and expand: `make -n`.
func TestReadmeMake(t *testing.T) {
	requireDemo(t)
	sh := newDocShell(t)
	for _, block := range []string{docBlock(t, "README.md", "readme-make"), docBlock(t, "README.md", "readme-dev")} {
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			cmd, _, _ := strings.Cut(line, "#")
			cmd = strings.TrimSpace(cmd)
			if !strings.HasPrefix(cmd, "make ") {
				t.Fatalf("not a make command: %q", line)
			}
			switch cmd {
			case "make build":
				sh.mustRun(t, cmd)
			case "make demo":
				if r := sh.mustRun(t, cmd); !strings.Contains(r.stdout, "== What the pipeline changed") || !strings.Contains(r.stdout, "revisionHistoryLimit: 3") {
					t.Errorf("make demo shows no change:\n%s", r)
				}
			default:
				r := sh.run(t, strings.Replace(cmd, "make ", "make -n ", 1))
				if r.code != 0 || strings.TrimSpace(r.stdout) == "" {
					t.Errorf("%s: no such target, or nothing to do:\n%s", cmd, r)
				}
			}
		}
	}
}

// requireDemo skips like the demo tests until every function of the
// pipeline exists.
func requireDemo(t *testing.T) {
	t.Helper()
	for _, fn := range demoFunctions(t) {
		requireFunction(t, fn)
	}
}

func TestReadmeRender(t *testing.T) {
	requireDemo(t)
	sh := newDocShell(t)
	sh.env = append(sh.env, "TMPDIR="+t.TempDir()) // where mktemp -d makes the copy
	r := sh.mustRun(t, docBlock(t, "README.md", "readme-render"))
	if !strings.Contains(r.stdout+r.stderr, "Successfully executed 4 function(s)") {
		t.Errorf("kpt fn render did not run the pipeline:\n%s", r)
	}
	r = sh.mustRun(t, docBlock(t, "README.md", "readme-eval-exec"))
	if !strings.Contains(r.stdout, "revisionHistoryLimit: 3") {
		t.Errorf("kpt fn eval printed no patched Deployment:\n%s", r)
	}
}

// TestReadmeKustomize runs the demo with kustomize as the README says, and
// checks what it says of a build without --enable-exec: exit 0, every exec
// function skipped, no word about it.
func TestReadmeKustomize(t *testing.T) {
	requireDemo(t)
	sh := newDocShell(t)
	r := sh.mustRun(t, docBlock(t, "README.md", "readme-kustomize"))
	const sidecar = "name: envoy\n"
	if !strings.Contains(r.stdout, sidecar) {
		t.Fatalf("the kustomize build injected no sidecar:\n%s", r)
	}
	kz := kustomize(t)
	r = run(t, sh.dir, nil, nil, kz, "build", "--enable-alpha-plugins", "examples/demo-shop")
	if r.code != 0 || strings.Contains(r.stdout, sidecar) || strings.Contains(r.stdout, "revisionHistoryLimit") || strings.TrimSpace(r.stderr) != "" {
		t.Errorf("the README says kustomize without --enable-exec skips exec functions silently (exit 0, no change, nothing on stderr); it did this:\n%s", r)
	}
}

// TestReadmeStandalone: the standalone commands, one by one: files and
// stdin give the same output, results on stderr; --help prints the usage.
func TestReadmeStandalone(t *testing.T) {
	requireFunction(t, "multi-patch")
	sh := newDocShell(t)
	lines := strings.Split(strings.TrimSpace(docBlock(t, "README.md", "readme-standalone")), "\n")
	if len(lines) != 3 {
		t.Fatalf("want the file, stdin and --help lines, got %q", lines)
	}
	files, stdin, help := sh.mustRun(t, lines[0]), sh.mustRun(t, lines[1]), sh.mustRun(t, lines[2])
	input, err := os.ReadFile(filepath.Join(sh.dir, "examples", "multi-patch-service-ports", "services.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if files.stdout != stdin.stdout || sameDocs(string(input), files.stdout) == "" {
		t.Errorf("the file and stdin runs disagree, or changed nothing:\n%s\n%s", files, stdin)
	}
	if !strings.Contains(files.stderr, "patches[0]") {
		t.Errorf("no result lines on stderr:\n%s", files)
	}
	if !strings.Contains(help.stdout, "Usage:") {
		t.Errorf("--help printed no usage:\n%s", help)
	}
}

// TestReadmeKustomization writes the README's kustomization example to a
// directory (files split at "---", each named by its first comment line),
// with a Deployment and the binary at the path the config names, and runs
// the README's build command there.
func TestReadmeKustomization(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	sh := newDocShell(t)
	sh.withTool(t, "kustomize", kustomize(t))
	dir := filepath.Join(sh.dir, "readme-kustomization")
	files := map[string]string{
		"deployments.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 1\n",
	}
	for _, doc := range strings.Split(docBlock(t, "README.md", "readme-kustomization"), "---\n") {
		first, rest, _ := strings.Cut(doc, "\n")
		name, ok := strings.CutPrefix(first, "# ")
		if !ok {
			t.Fatalf("a document of the block does not start with its file name: %q", first)
		}
		files[name] = rest
	}
	writeTree(t, dir, files)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, bin, filepath.Join(dir, "bin", "multi-patch"), 0o755)
	r := sh.mustRun(t, docBlock(t, "README.md", "readme-kustomize-build"), "readme-kustomization")
	if !strings.Contains(r.stdout, "replicas: 3") {
		t.Errorf("the build did not patch the Deployment:\n%s", r)
	}
}

// TestReadmeGoInstall runs the README's `go install …@latest` lines against
// a module proxy on disk serving this checkout as the module's latest
// version (the dependencies come from the local module cache, as a proxy),
// into a GOPATH of their own; then finds the installed functions by name
// from kpt, as the README says, and from a Kptfile's `exec: multi-patch`.
func TestReadmeGoInstall(t *testing.T) {
	for _, fn := range helmFunctions {
		requireFunction(t, fn)
	}
	base := t.TempDir()
	proxy := filepath.Join(base, "proxy")
	const version = "v0.0.1"
	moduleProxy(t, proxy, "github.com/patchwork-krm/patchwork", version)
	gopath := filepath.Join(base, "gopath")
	sh := newDocShell(t)
	sh.env = append(sh.env,
		"GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"), "GOBIN=",
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"),
		"GONOSUMDB=github.com/patchwork-krm/patchwork", "GOSUMDB=off",
		// -trimpath: the e2e binaries were built so, and the build cache
		// then serves the dependencies; -modcacherw: the test's module
		// cache can be removed.
		"GOFLAGS=-trimpath -modcacherw")
	sh.mustRun(t, docBlock(t, "README.md", "readme-go-install"))
	for _, fn := range helmFunctions {
		r := run(t, base, nil, nil, filepath.Join(gopath, "bin", fn), "--version")
		if r.code != 0 || !strings.HasPrefix(r.stdout, fn+" "+version+" ") {
			t.Errorf("%s --version after go install:\n%s", fn, r)
		}
	}

	r := sh.mustRun(t, docBlock(t, "README.md", "readme-exec-on-path"))
	if !strings.Contains(r.stdout, "patches[0]") && !strings.Contains(r.stderr, "patches[0]") {
		t.Errorf("kpt fn eval --exec multi-patch reported no result of multi-patch:\n%s", r)
	}

	// exec: multi-patch in a Kptfile, rendered from a directory with no bin/.
	pkg := filepath.Join(base, "selectors")
	copyDir(t, filepath.Join(env.root, "examples", "multi-patch-selectors"), pkg)
	kptfile := filepath.Join(pkg, "Kptfile")
	raw, err := os.ReadFile(kptfile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "exec: ./bin/multi-patch") {
		t.Fatalf("the example's Kptfile no longer runs ./bin/multi-patch:\n%s", raw)
	}
	if err := os.WriteFile(kptfile, []byte(strings.ReplaceAll(string(raw), "exec: ./bin/multi-patch", "exec: multi-patch")), 0o644); err != nil {
		t.Fatal(err)
	}
	r = sh.run(t, "export PATH=$(go env GOPATH)/bin:$PATH\nkpt fn render --allow-exec "+pkg+"\n", "..")
	if r.code != 0 || diffTrees(t, base, filepath.Join(env.root, "examples", "multi-patch-selectors"), pkg) == "" {
		t.Errorf("kpt fn render with exec: multi-patch on PATH failed or changed nothing:\n%s", r)
	}
}

// moduleProxy writes a GOPROXY directory serving this checkout (the files
// git lists, as copyRepo copies them) as module@version, the only version.
func moduleProxy(t *testing.T, dir, module, version string) {
	t.Helper()
	src := filepath.Join(t.TempDir(), "src")
	copyRepo(t, src)
	at := filepath.Join(dir, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, version, time.Now().UTC().Format(time.RFC3339))
	for name, content := range map[string]string{"list": version + "\n", version + ".info": info, version + ".mod": string(gomod)} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	err = filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		w, err := zw.Create(module + "@" + version + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		_, err = w.Write(raw)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
}

// isolatedPodman gives podman an image store of its own for one test, so
// that commands building fixed tags (make images VERSION=dev) neither meet
// nor replace anyone else's images; everything in it goes with the test.
func isolatedPodman(t *testing.T) []string {
	t.Helper()
	podman := podman(t)
	// A short path: conmon's sockets live below the run root, and a socket
	// path over 108 bytes (t.TempDir() with a long test name) leaves podman
	// waiting 20 s for every container's exit.
	dir, err := os.MkdirTemp("", "pw-store-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "storage.conf")
	content := fmt.Sprintf("[storage]\ndriver = \"overlay\"\ngraphroot = %q\nrunroot = %q\n", filepath.Join(dir, "graph"), filepath.Join(dir, "run"))
	if err := os.WriteFile(conf, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	envs := []string{"CONTAINERS_STORAGE_CONF=" + conf}
	t.Cleanup(func() {
		run(t, env.root, append(envs, containersConf()), nil, podman, "rmi", "--all", "--force")
	})
	return envs
}

// releasedImage matches a released image reference in the docs, with the
// digest pinned after a release.
var releasedImage = regexp.MustCompile(`ghcr\.io/patchwork-krm/([a-z-]+):(v[0-9][0-9A-Za-z.+-]*)(@sha256:[0-9a-f]{64})?`)

// localReleaseImages builds, in the test's own image store, the images a
// block names by release tag, from this run's binaries; a pinned digest is
// the release's, which a local build cannot have, so the tag stands in.
func localReleaseImages(t *testing.T, block string, envs []string) string {
	t.Helper()
	for _, m := range releasedImage.FindAllStringSubmatch(block, -1) {
		r := run(t, env.root, append(envs, "BIN_DIR="+env.bin), nil, filepath.Join(env.root, "build", "images.sh"), m[2], m[1])
		if r.code != 0 {
			t.Fatalf("building %s:\n%s", m[0], r)
		}
	}
	return releasedImage.ReplaceAllString(block, "ghcr.io/patchwork-krm/$1:$2")
}

// TestReadmeImages runs the README's image commands: make images and kpt fn
// eval --image (with the README's CONTAINERS_CONF line), the one-off image
// run and the one with --mount, in an image store of the test's own.
func TestReadmeImages(t *testing.T) {
	requireFunction(t, "multi-patch")
	envs := isolatedPodman(t)
	sh := newDocShell(t)
	sh.env = append(sh.env, envs...)
	r := sh.mustRun(t, docBlock(t, "README.md", "readme-images"))
	if !strings.Contains(r.stdout, "revisionHistoryLimit: 3") {
		t.Errorf("the image run printed no patched Deployment:\n%s", r)
	}

	// The README's later image commands: podman as kpt's runtime, set up as
	// in the block above.
	sh.env = append(sh.env, "KPT_FN_RUNTIME=podman", containersConf())
	before := filepath.Join(t.TempDir(), "selectors")
	copyDir(t, filepath.Join(sh.dir, "examples", "multi-patch-selectors"), before)
	sh.mustRun(t, localReleaseImages(t, docBlock(t, "README.md", "readme-eval"), envs))
	if diffTrees(t, sh.dir, before, filepath.Join(sh.dir, "examples", "multi-patch-selectors")) == "" {
		t.Error("kpt fn eval --exec and --image changed nothing in examples/multi-patch-selectors")
	}
	r = sh.mustRun(t, localReleaseImages(t, docBlock(t, "README.md", "readme-mount"), envs))
	got, err := os.ReadFile(filepath.Join(sh.dir, "examples", "multi-patch-patch-files", "resources.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "runAsNonRoot: true") || !strings.Contains(string(got), "replicas: 1") {
		t.Errorf("the --mount run applied no patch file:\n%s\n%s", r, got)
	}
}

// TestKptPkgGet fetches an example with the page's kpt pkg get, from a git
// repository on disk standing in for GitHub (this checkout, committed on
// main), and renders it as the page says.
func TestKptPkgGet(t *testing.T) {
	requireFunction(t, "multi-patch")
	sh := newDocShell(t)
	base := filepath.Dir(sh.dir)
	git := func(dir string, args ...string) {
		t.Helper()
		r := run(t, dir, []string{"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com", "GIT_COMMITTER_NAME=e2e",
			"GIT_COMMITTER_EMAIL=e2e@example.com"}, nil, "git", args...)
		if r.code != 0 {
			t.Fatalf("git:\n%s", r)
		}
	}
	src := filepath.Join(base, "src")
	copyRepo(t, src)
	git(src, "init", "-q", "-b", "main")
	git(src, "add", "-A")
	git(src, "commit", "-q", "-m", "e2e")
	git(base, "clone", "-q", "--bare", src, filepath.Join(base, "patchwork.git"))

	block := docBlock(t, "docs/integrations.md", "kpt-pkg-get")
	const github = "https://github.com/patchwork-krm/patchwork.git"
	if !strings.Contains(block, github) {
		t.Fatalf("the block no longer fetches from %s:\n%s", github, block)
	}
	r := sh.mustRun(t, strings.ReplaceAll(block, github, "file://"+filepath.Join(base, "patchwork.git")))
	if !strings.Contains(r.stdout+r.stderr, "Successfully executed 1 function(s)") {
		t.Errorf("the fetched package did not render:\n%s", r)
	}
	got := filepath.Join(sh.dir, "my-selectors")
	if d := diffTrees(t, base, filepath.Join(env.root, "examples", "multi-patch-selectors"), got); !strings.Contains(d, "resources.yaml") {
		t.Errorf("rendering the fetched package changed no resource:\n%s", d)
	}
}
