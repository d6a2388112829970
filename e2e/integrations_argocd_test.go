package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// The Argo CD tests: docs/integrations.md's two ways, up to the cluster.

const argoDir = "docs/integrations/argocd"

// argoBuildEnv is the build environment Argo CD gives kustomize and config
// management plugins (its docs' "Build Environment"), for the example app.
func argoBuildEnv(path string) []string {
	return []string{
		"ARGOCD_APP_NAME=storefront", "ARGOCD_APP_NAMESPACE=storefront", "ARGOCD_APP_PROJECT_NAME=default",
		"ARGOCD_APP_REVISION=0123456789abcdef0123456789abcdef01234567", "ARGOCD_APP_REVISION_SHORT=0123456",
		"ARGOCD_APP_SOURCE_PATH=" + path, "ARGOCD_APP_SOURCE_REPO_URL=https://github.com/patchwork-krm/patchwork.git",
		"ARGOCD_APP_SOURCE_TARGET_REVISION=main", "KUBE_VERSION=1.35.0", "KUBE_API_VERSIONS=v1,apps/v1",
	}
}

// argoBuildOptions reads kustomize.buildOptions from the page's argocd-cm
// and splits it as Argo CD does (strings.Fields).
func argoBuildOptions(t *testing.T) []string {
	t.Helper()
	var cm struct {
		Data map[string]string `json:"data"`
	}
	raw, err := os.ReadFile(filepath.Join(env.root, argoDir, "argocd-cm.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &cm); err != nil {
		t.Fatal(err)
	}
	opts := strings.Fields(cm.Data["kustomize.buildOptions"])
	if len(opts) == 0 {
		t.Fatal("argocd-cm.yaml sets no kustomize.buildOptions")
	}
	return opts
}

// TestArgoCDKustomizeBuildOptions builds the repo-server image as the page
// says (Argo CD's own image replaced by a stand-in: scratch, the pinned
// static kustomize, user 999), then runs in it the command Argo CD's
// repo-server runs for a kustomize application: `kustomize build <repo>/<path>
// <build options>` in the repository's root, as user 999, with the build
// environment. The result must equal a build on the host with the binaries'
// host paths.
func TestArgoCDKustomizeBuildOptions(t *testing.T) {
	for _, fn := range helmFunctions {
		requireFunction(t, fn)
	}
	envs := append(isolatedPodman(t), containersConf())
	podman := podman(t)

	// The stand-in for quay.io/argoproj/argocd, under the Dockerfile's tag.
	base := t.TempDir()
	copyFile(t, kustomize(t), filepath.Join(base, "kustomize"), 0o755)
	writeTree(t, base, map[string]string{
		"passwd":     "root:x:0:0:root:/root:/sbin/nologin\nargocd:x:999:999:argocd:/home/argocd:/sbin/nologin\n",
		"Dockerfile": "FROM scratch\nCOPY passwd /etc/passwd\nCOPY kustomize /usr/local/bin/kustomize\nUSER 999\n",
	})
	dockerfile, err := os.ReadFile(filepath.Join(env.root, argoDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	argoImage := strings.TrimPrefix(strings.SplitN(string(dockerfile)[strings.Index(string(dockerfile), "ARG ARGOCD_IMAGE="):], "\n", 2)[0], "ARG ARGOCD_IMAGE=")
	if r := run(t, base, envs, nil, podman, "build", "--quiet", "-t", argoImage, "."); r.code != 0 {
		t.Fatalf("building the stand-in for %s:\n%s", argoImage, r)
	}

	sh := newDocShell(t)
	sh.env = append(sh.env, envs...)
	// Our images under the tags the Dockerfile names (a pinned digest is the
	// release's: the tag stands in for it), and kpt's release from a local
	// server standing in for GitHub.
	local := localReleaseImages(t, string(dockerfile), envs)
	if err := os.WriteFile(filepath.Join(sh.dir, argoDir, "Dockerfile"), []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	kptDir := t.TempDir()
	copyFile(t, kpt(t), filepath.Join(kptDir, "kpt_linux_amd64"), 0o755)
	srv := httptest.NewServer(http.FileServer(http.Dir(kptDir)))
	defer srv.Close()
	block := docBlock(t, "docs/integrations.md", "argocd-image")
	const kptRelease = "https://github.com/kptdev/kpt/releases/download/v1.0.0-beta.56"
	if !strings.Contains(block, kptRelease) {
		t.Fatalf("the block no longer downloads kpt from %s:\n%s", kptRelease, block)
	}
	tool(t, "curl", "apt-get install curl (make tools does, as root)")
	sh.mustRun(t, strings.ReplaceAll(block, kptRelease, srv.URL))
	image := "registry.example.com/argocd-patchwork:v3.2.0"
	if !strings.Contains(block, image) {
		t.Fatalf("the block no longer builds %s", image)
	}

	// What the image holds.
	for _, fn := range append(helmFunctions, "kpt") {
		r := run(t, env.root, envs, nil, podman, "run", "--rm", "--network", "none", "--entrypoint", "/usr/local/bin/"+fn, image, "--version")
		if r.code != 0 && fn != "kpt" { // kpt needs a libc the stand-in lacks
			t.Errorf("/usr/local/bin/%s in the image:\n%s", fn, r)
		}
	}

	// Argo CD's invocation: the repository's copy at a path like the
	// repo-server's, the app's absolute path, the build options after it.
	const repo = "/tmp/_argocd-repo/0f4b8a7e-e2e"
	app := filepath.Join(argoDir, "kustomize-app")
	if err := os.Chmod(sh.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--rm", "--network", "none", "--user", "999", "-v", sh.dir + ":" + repo + ":ro", "-w", repo}
	for _, kv := range argoBuildEnv(app) {
		args = append(args, "-e", kv)
	}
	args = append(args, image, "kustomize", "build", repo+"/"+app)
	args = append(args, argoBuildOptions(t)...)
	got := run(t, env.root, envs, nil, podman, args...)
	if got.code != 0 {
		t.Fatalf("kustomize build as Argo CD runs it:\n%s", got)
	}

	// The same app built on the host, the configs naming this run's binaries.
	host := filepath.Join(t.TempDir(), "app")
	copyDir(t, filepath.Join(env.root, app), host)
	for _, name := range yamlFiles(t, host) {
		p := filepath.Join(host, name)
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(raw), "/usr/local/bin/", env.bin+"/")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := run(t, host, nil, nil, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if want.code != 0 {
		t.Fatalf("the host build:\n%s", want)
	}
	if got.stdout != want.stdout {
		t.Errorf("Argo CD's build in the image differs from the host's:\n--- image\n%s--- host\n%s", got.stdout, want.stdout)
	}
	for _, effect := range []string{"name: log-shipper", "storefront-settings-", `"cache": {"enabled": true}`} {
		if !strings.Contains(got.stdout, effect) {
			t.Errorf("the build lacks %q: did the functions run?\n%s", effect, got.stdout)
		}
	}
}

// TestArgoCDRepoServerPatch applies the page's repo-server patch to a
// Deployment shaped like Argo CD's argocd-repo-server (its containers and
// volumes by name) with kustomize: it must name the Deployment and volumes
// that exist, and give both containers the image the page builds.
func TestArgoCDRepoServerPatch(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, filepath.Join(env.root, argoDir, "repo-server-patch.yaml"), filepath.Join(dir, "patch.yaml"), 0o644)
	writeTree(t, dir, map[string]string{
		"kustomization.yaml": "resources: [repo-server.yaml]\npatches: [{path: patch.yaml}]\n",
		"repo-server.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: argocd-repo-server, namespace: argocd}
spec:
  selector: {matchLabels: {app.kubernetes.io/name: argocd-repo-server}}
  template:
    metadata: {labels: {app.kubernetes.io/name: argocd-repo-server}}
    spec:
      containers:
      - name: argocd-repo-server
        image: quay.io/argoproj/argocd:v3.2.0
        volumeMounts: [{name: var-files, mountPath: /var/run/argocd}, {name: plugins, mountPath: /home/argocd/cmp-server/plugins}]
      volumes: [{name: var-files, emptyDir: {}}, {name: plugins, emptyDir: {}}]
`,
	})
	r := run(t, dir, nil, nil, kustomize(t), "build", ".")
	if r.code != 0 {
		t.Fatalf("applying the patch:\n%s", r)
	}
	var d struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Name, Image  string
						VolumeMounts []struct{ Name string } `json:"volumeMounts"`
					}
					Volumes []struct{ Name string }
				}
			}
		}
	}
	if err := yaml.Unmarshal([]byte(r.stdout), &d); err != nil {
		t.Fatal(err)
	}
	spec := d.Spec.Template.Spec
	volumes := map[string]bool{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = true
	}
	var names []string
	for _, c := range spec.Containers {
		names = append(names, c.Name)
		if c.Image != "registry.example.com/argocd-patchwork:v3.2.0" {
			t.Errorf("container %s runs %s", c.Name, c.Image)
		}
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] {
				t.Errorf("container %s mounts volume %s, which the Deployment lacks", c.Name, m.Name)
			}
		}
	}
	sort.Strings(names)
	if fmt.Sprint(names) != "[argocd-repo-server patchwork-kpt]" {
		t.Errorf("containers %v, want the repo-server and the plugin's sidecar", names)
	}
}

// TestArgoCDPlugin runs the config management plugin's generate command on
// the example kpt application as Argo CD's cmp-server does: the command and
// args from plugin.yaml, in the application's directory of a copy of the
// repository, with the sidecar's environment (the functions, kpt and
// kustomize on PATH) and Argo CD's build environment. Its output must be a
// plain stream of what kpt renders, without local-config resources or kpt's
// bookkeeping, and the application's files must not change.
func TestArgoCDPlugin(t *testing.T) {
	for _, fn := range []string{"multi-patch", "structured-replacement"} {
		requireFunction(t, fn)
	}
	var plugin struct {
		Metadata struct{ Name string }
		Spec     struct {
			Version  string
			Discover struct {
				FileName string `json:"fileName"`
			}
			Generate struct{ Command, Args []string }
		}
	}
	raw, err := os.ReadFile(filepath.Join(env.root, argoDir, "plugin", "plugin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &plugin); err != nil {
		t.Fatal(err)
	}
	var app struct {
		Spec struct {
			Source struct {
				Path   string
				Plugin struct{ Name string }
			}
		}
	}
	raw, err = os.ReadFile(filepath.Join(env.root, argoDir, "application.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(raw, &app); err != nil {
		t.Fatal(err)
	}
	if want := plugin.Metadata.Name + "-" + plugin.Spec.Version; app.Spec.Source.Plugin.Name != want {
		t.Errorf("application.yaml names plugin %q; Argo CD names it %q", app.Spec.Source.Plugin.Name, want)
	}
	appDir := filepath.Join(env.root, filepath.FromSlash(app.Spec.Source.Path))
	if m, _ := filepath.Glob(filepath.Join(appDir, plugin.Spec.Discover.FileName)); len(m) == 0 {
		t.Errorf("the plugin's discover rule (fileName %q) does not match %s", plugin.Spec.Discover.FileName, app.Spec.Source.Path)
	}

	// The sidecar: a copy of the repository (the cmp-server's workdir), PATH
	// with the functions by name, kpt and kustomize.
	work := filepath.Join(t.TempDir(), "_cmp_server", "0f4b8a7e")
	copyRepo(t, work)
	path := t.TempDir()
	for fn, bin := range env.built {
		copyFile(t, bin, filepath.Join(path, fn), 0o755)
	}
	for name, bin := range map[string]string{"kpt": kpt(t), "kustomize": kustomize(t)} {
		if err := os.Symlink(bin, filepath.Join(path, name)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := append(plugin.Spec.Generate.Command[1:], plugin.Spec.Generate.Args...)
	sidecarEnv := append(argoBuildEnv(app.Spec.Source.Path), "PATH="+path+":/usr/bin:/bin", "HOME="+t.TempDir(), "TMPDIR="+t.TempDir())
	dir := filepath.Join(work, filepath.FromSlash(app.Spec.Source.Path))
	r := runExact(t, dir, sidecarEnv, plugin.Spec.Generate.Command[0], cmd...)
	if r.code != 0 {
		t.Fatalf("the plugin's generate:\n%s", r)
	}
	if d := diffTrees(t, work, appDir, dir); d != "" {
		t.Errorf("generate changed the application's files:\n%s", d)
	}

	// What kpt renders, without local-config resources.
	want := map[string]map[string]any{}
	rendered := run(t, env.root, []string{"PATH=" + path + ":" + os.Getenv("PATH")}, nil, kpt(t), "fn", "render", "--allow-exec", "-o", "unwrap", appDir)
	if rendered.code != 0 {
		t.Fatalf("kpt fn render:\n%s", rendered)
	}
	for _, obj := range splitDocs(t, []byte(rendered.stdout)) {
		if !localConfig(obj) {
			addByID(t, want, obj)
		}
	}
	got := map[string]map[string]any{}
	for _, obj := range splitDocs(t, []byte(r.stdout)) {
		addByID(t, got, obj)
		md, _ := obj["metadata"].(map[string]any)
		ann, _ := md["annotations"].(map[string]any)
		for k := range ann {
			if strings.Contains(k, "config.kubernetes.io/") {
				t.Errorf("%s carries kpt's %s", describe(obj), k)
			}
		}
	}
	compareResources(t, "kpt fn render", want, "the plugin", got)
	if !strings.Contains(r.stdout, "opensearch.search.svc") || !strings.Contains(r.stdout, "runAsNonRoot: true") {
		t.Errorf("the functions did not run:\n%s", r.stdout)
	}

	// A program the package holds, named in its Kptfile, is refused before
	// kpt runs: kpt alone would run it (the control), the plugin does not.
	evil := filepath.Join(t.TempDir(), "_cmp_server", "evil")
	copyDir(t, appDir, evil)
	marker := plantProgram(t, evil, "./render.sh")
	kptEnv := []string{"PATH=" + path + ":" + os.Getenv("PATH")}
	if r := run(t, evil, kptEnv, nil, kpt(t), "fn", "render", "--allow-exec", "-o", "unwrap", "."); r.code != 0 || !ran(marker) {
		t.Fatalf("the control: kpt alone should run the package's program:\n%s", r)
	}
	os.Remove(marker)
	refused := runExact(t, evil, sidecarEnv, plugin.Spec.Generate.Command[0], cmd...)
	if refused.code == 0 || !strings.Contains(refused.stderr, `pipeline.mutators[2]: exec "./render.sh" is not one of the functions trusted here`) {
		t.Errorf("the plugin rendered a package that runs its own program:\n%s", refused)
	}
	if ran(marker) {
		t.Errorf("the package's program ran in the plugin")
	}
}

// plantProgram adds to the pipeline of the kpt package dir (its Kptfile
// ends with the mutators) a program of the package's own, exec (the path
// kpt is to run, from where it runs), which passes the resources through
// and leaves a marker file; it returns the marker's path.
func plantProgram(t *testing.T, dir, exec string) string {
	t.Helper()
	marker := filepath.Join(t.TempDir(), "ran")
	script := "#!/bin/sh\necho ran >" + marker + "\nexec cat\n"
	if err := os.WriteFile(filepath.Join(dir, "render.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	kptfile := filepath.Join(dir, "Kptfile")
	raw, err := os.ReadFile(kptfile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kptfile, append(raw, "  - exec: "+exec+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	return marker
}

// ran reports whether the program plantProgram planted left its marker.
func ran(marker string) bool {
	_, err := os.Stat(marker)
	return err == nil
}

// TestArgoCDLocal runs the page's ways to try the example applications on
// a developer's machine, with the binaries `make build` made: the
// kustomize application through a copy naming them, the kpt application
// with them on PATH. The functions must have run, and the applications'
// files stay as they are.
func TestArgoCDLocal(t *testing.T) {
	for _, fn := range helmFunctions {
		requireFunction(t, fn)
	}
	kpt(t)
	sh := newDocShell(t)
	sh.withTool(t, "kustomize", kustomize(t))
	out := sh.mustRun(t, docBlock(t, "docs/integrations.md", "argocd-kustomize-local")).stdout
	for _, effect := range []string{"name: log-shipper", "storefront-settings-", `"cache": {"enabled": true}`} {
		if !strings.Contains(out, effect) {
			t.Errorf("the local kustomize build lacks %q: did the functions run?\n%s", effect, out)
		}
	}
	out = sh.mustRun(t, docBlock(t, "docs/integrations.md", "argocd-kpt-local")).stdout
	if !strings.Contains(out, "opensearch.search.svc") || !strings.Contains(out, "runAsNonRoot: true") {
		t.Errorf("the local kpt render: the functions did not run:\n%s", out)
	}
	for _, app := range []string{"kustomize-app", "kpt-app"} {
		if d := diffTrees(t, filepath.Join(sh.dir, argoDir, app), filepath.Join(env.root, argoDir, app), filepath.Join(sh.dir, argoDir, app)); d != "" {
			t.Errorf("trying %s changed its files:\n%s", app, d)
		}
	}
}
