package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// hookChart is a chart with a hook (a pre-install Job) beside an ordinary
// Deployment.
var hookChart = map[string]string{
	"Chart.yaml": "apiVersion: v2\nname: hooked\nversion: 0.1.0\n",
	"templates/job.yaml": `apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-migrate
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: migrate:1
`,
	"templates/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-app
spec:
  template:
    spec:
      containers:
      - name: app
        image: app:1
`,
}

const hookConfig = `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata: {name: hooks}
patches:
- target: {kind: Job}
  patch: |
    spec:
      template:
        spec:
          containers:
          - name: migrate
            image: migrate:2
`

// filenameAnnotation is the annotation with which Helm 4 tells the
// post-renderer each manifest's template file, and finds it again in what
// comes back.
var filenameAnnotation = regexp.MustCompile(`(?m)^    (postrender(?:er)?\.helm\.sh/postrender-filename): (.*)$`)

// TestHelm4PluginHook: Helm 4 hands chart hooks to post-renderers too. The
// plugin patches the hook (a pre-install Job); each manifest's
// postrender-filename annotation, as Helm wrote it, comes back from the
// function unchanged (a wrapper around the function records what it got
// and gave); and Helm's output keeps each manifest's "# Source:" line.
func TestHelm4PluginHook(t *testing.T) {
	helm := helmBin(t, 4)
	const fn = "multi-patch"
	dir := t.TempDir()
	for name, text := range hookChart {
		must(t, os.MkdirAll(filepath.Join(dir, "chart", filepath.Dir(name)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "chart", name), []byte(text), 0o644))
	}
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(hookConfig), 0o644))
	plugin := helmPlugin(t, filepath.Join(dir, "plugins"), "v0.0.0-e2e", fn, "")
	// Linux runs post-renderer: record the function's stdin and stdout.
	wrapper := "#!/bin/sh\ntee \"" + filepath.Join(dir, "in.yaml") + "\" | \"$HELM_PLUGIN_DIR/" + fn + "\" \"$@\" | tee \"" + filepath.Join(dir, "out.yaml") + "\"\n"
	must(t, os.WriteFile(filepath.Join(plugin, "post-renderer"), []byte(wrapper), 0o755))
	home := helmHome(t)
	if r := run(t, dir, home, nil, helm, "plugin", "install", plugin); r.code != 0 {
		t.Fatalf("installing the plugin:\n%s", r)
	}
	r := run(t, dir, home, nil, helm, "template", "r", "chart", "--post-renderer", fn, "--post-renderer-args", filepath.Join(dir, "config.yaml"))
	if r.code != 0 {
		t.Fatalf("helm template with the plugin:\n%s", r)
	}
	job := r.stdout[strings.Index(r.stdout, "# Source: hooked/templates/job.yaml"):]
	if !strings.Contains(job, "helm.sh/hook: pre-install,pre-upgrade") || !strings.Contains(job, "image: migrate:2") {
		t.Errorf("the hook is not in the output, patched:\n%s", r)
	}
	for _, src := range []string{"# Source: hooked/templates/job.yaml", "# Source: hooked/templates/deploy.yaml"} {
		if strings.Count(r.stdout, src) != 1 {
			t.Errorf("the output lacks %q (or has it twice):\n%s", src, r)
		}
	}
	in, out := readFile(t, filepath.Join(dir, "in.yaml")), readFile(t, filepath.Join(dir, "out.yaml"))
	given, back := filenameAnnotation.FindAllString(in, -1), filenameAnnotation.FindAllString(out, -1)
	if len(given) != 2 || strings.Join(given, "\n") != strings.Join(back, "\n") {
		t.Errorf("the function did not give back Helm's filename annotations as they came:\n--- given\n%s\n--- back\n%s", in, out)
	}
}
