package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

const fluxDir = "docs/integrations/flux"

// A workflow, as much of it as the test runs.
type workflow struct {
	Env  map[string]string
	Jobs map[string]struct {
		Steps []struct {
			Name, Uses, Run string
			Env             map[string]string
		}
	}
}

var ghExpr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// TestFluxRenderWorkflow runs the page's CI workflow for Flux locally, up
// to the push: in a repository of a user's shape (the package in deploy/,
// committed on main), each `run:` step in order with bash as GitHub runs it,
// GITHUB_PATH honoured; `uses:` steps stand for what is already here (the
// checkout, Go). Downloads come from local servers standing in for GitHub
// (kpt's release) and the Go module proxy (this checkout as the workflow's
// patchwork version; the rest from the module cache). What it would push
// must be kpt's render of the package without local-config resources. The
// workflow passes actionlint, and the Flux objects pull what it pushes.
func TestFluxRenderWorkflow(t *testing.T) {
	for _, fn := range helmFunctions {
		requireFunction(t, fn)
	}
	file := filepath.Join(env.root, fluxDir, "render-manifests.yml")
	if r := run(t, env.root, nil, nil, filepath.Join(env.root, "bin", "tools", "actionlint"), file); r.code != 0 {
		t.Fatalf("actionlint:\n%s", r)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	job, ok := wf.Jobs["render"]
	if !ok {
		t.Fatal("the workflow has no job render")
	}
	github := map[string]string{"github.repository_owner": "my-org"}
	expand := func(s string) string {
		return ghExpr.ReplaceAllStringFunc(s, func(m string) string {
			v, ok := github[ghExpr.FindStringSubmatch(m)[1]]
			if !ok {
				t.Fatalf("the test knows no value for %s", m)
			}
			return v
		})
	}

	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	copyDir(t, filepath.Join(env.root, fluxDir, "deploy"), filepath.Join(repo, "deploy"))
	gitEnv := []string{"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com", "GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com"}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "deploy"},
		{"remote", "add", "origin", "https://github.com/my-org/shop.git"}} {
		if r := run(t, repo, gitEnv, nil, "git", args...); r.code != 0 {
			t.Fatalf("git:\n%s", r)
		}
	}
	sha := strings.TrimSpace(run(t, repo, nil, nil, "git", "rev-parse", "HEAD").stdout)

	// GitHub's kpt release and the module proxy, on disk.
	releases := filepath.Join(base, "releases")
	kptVersion := wf.Env["KPT_VERSION"]
	if err := os.MkdirAll(filepath.Join(releases, kptVersion), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, kpt(t), filepath.Join(releases, kptVersion, "kpt_linux_amd64"), 0o755)
	srv := httptest.NewServer(http.FileServer(http.Dir(releases)))
	defer srv.Close()
	proxy := filepath.Join(base, "proxy")
	moduleProxy(t, proxy, "github.com/patchwork-krm/patchwork", wf.Env["PATCHWORK_VERSION"])
	tool(t, "curl", "apt-get install curl (make tools does, as root)")

	home := filepath.Join(base, "home")
	ghPath := filepath.Join(base, "github_path")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ghPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sh := &docShell{home: home}
	baseEnv := append(sh.environ(t),
		"GITHUB_PATH="+ghPath, "GITHUB_SHA="+sha, "GITHUB_REF_NAME=main", "GITHUB_REPOSITORY_OWNER=my-org", "CI=true",
		"GOPATH="+filepath.Join(base, "gopath"), "GOMODCACHE="+filepath.Join(base, "gopath", "pkg", "mod"),
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"),
		"GONOSUMDB=github.com/patchwork-krm/patchwork", "GOSUMDB=off", "GOFLAGS=-trimpath -modcacherw", "CGO_ENABLED=0",
		"TMPDIR="+t.TempDir())
	for k, v := range wf.Env {
		baseEnv = append(baseEnv, k+"="+expand(v))
	}

	push := ""
	var render []string // the Render step: its script, then its environment
	for _, step := range job.Steps {
		if step.Name == "Push" {
			push = step.Run
			if !strings.Contains(step.Run, "flux push artifact") || !strings.Contains(step.Run, "--path=rendered") {
				t.Errorf("the Push step no longer pushes rendered/:\n%s", step.Run)
			}
			break
		}
		if step.Uses != "" {
			continue // actions/checkout, setup-go: the repository and Go are here
		}
		script := strings.ReplaceAll(expand(step.Run), "https://github.com/kptdev/kpt/releases/download", srv.URL)
		stepEnv := append([]string{}, baseEnv...)
		for k, v := range step.Env {
			stepEnv = append(stepEnv, k+"="+expand(v))
		}
		stepEnv = append(stepEnv, "PATH="+githubPath(t, ghPath)+string(os.PathListSeparator)+pathOf(stepEnv))
		r := runExact(t, repo, stepEnv, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		if r.code != 0 {
			t.Fatalf("step %q failed:\n%s", step.Name, r)
		}
		if step.Name == "Render" {
			render = append([]string{script}, stepEnv...)
		}
	}
	if push == "" {
		t.Fatal("the workflow has no step named Push")
	}

	// What it would push: kpt's render, without local-config resources.
	got := map[string]map[string]any{}
	manifests, err := os.ReadFile(filepath.Join(repo, "rendered", "manifests.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range splitDocs(t, manifests) {
		addByID(t, got, obj)
	}
	onPath := t.TempDir()
	for fn, bin := range env.built {
		copyFile(t, bin, filepath.Join(onPath, fn), 0o755)
	}
	r := run(t, repo, []string{"PATH=" + onPath + ":" + os.Getenv("PATH")}, nil, kpt(t), "fn", "render", "--allow-exec", "-o", "unwrap", filepath.Join(env.root, fluxDir, "deploy"))
	if r.code != 0 {
		t.Fatalf("kpt fn render:\n%s", r)
	}
	want := map[string]map[string]any{}
	for _, obj := range splitDocs(t, []byte(r.stdout)) {
		if !localConfig(obj) {
			addByID(t, want, obj)
		}
	}
	compareResources(t, "kpt fn render", want, "the workflow", got)
	if !strings.Contains(string(manifests), "trace-agent") || !strings.Contains(string(manifests), "replicas: 3") {
		t.Errorf("the functions did not run:\n%s", manifests)
	}

	// A program committed in the package, named in its Kptfile, is refused
	// before kpt runs: the Render step fails, and the program never ran.
	if render == nil {
		t.Fatal("the workflow has no step named Render")
	}
	evil := filepath.Join(base, "evil")
	copyDir(t, repo, evil)
	marker := plantProgram(t, filepath.Join(evil, "deploy"), "./deploy/render.sh")
	if r := run(t, evil, []string{"PATH=" + onPath + ":" + os.Getenv("PATH")}, nil, kpt(t), "fn", "render", "--allow-exec", "-o", "unwrap", "deploy"); r.code != 0 || !ran(marker) {
		t.Fatalf("the control: kpt alone should run the package's program:\n%s", r)
	}
	os.Remove(marker)
	refused := runExact(t, evil, render[1:], "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", render[0])
	if refused.code == 0 || !strings.Contains(refused.stderr, `exec "./deploy/render.sh" is not one of the functions trusted here`) {
		t.Errorf("the Render step rendered a package that runs its own program:\n%s", refused)
	}
	if ran(marker) {
		t.Errorf("the package's program ran in the Render step")
	}

	// The cluster side pulls what the workflow pushes: its artifact, tag main.
	raw, err = os.ReadFile(filepath.Join(env.root, fluxDir, "flux-sync.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var oci struct {
		Spec struct {
			URL string
			Ref struct{ Tag string }
		}
	}
	if err := yaml.Unmarshal([]byte(strings.SplitN(string(raw), "\n---\n", 2)[0]), &oci); err != nil {
		t.Fatal(err)
	}
	if oci.Spec.URL != expand(wf.Env["ARTIFACT"]) || !strings.Contains(push, "--tag "+oci.Spec.Ref.Tag) {
		t.Errorf("the OCIRepository (%s, tag %s) does not pull what the workflow pushes (%s)", oci.Spec.URL, oci.Spec.Ref.Tag, expand(wf.Env["ARTIFACT"]))
	}
}

// githubPath is the PATH entries a workflow added through GITHUB_PATH,
// latest first.
func githubPath(t *testing.T, file string) string {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(raw))
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return strings.Join(lines, string(os.PathListSeparator))
}

// pathOf returns the last PATH of an environment.
func pathOf(environ []string) string {
	p := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			p = v
		}
	}
	return p
}
