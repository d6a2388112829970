package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// YAML syntax errors are told by the line of the user's file where the text
// stops being YAML, that line shown, and what is wrong in words: yaml.v3
// alone names the line its enclosing block starts on ("line 5: did not find
// expected key" for a key misindented on line 9).

const syntaxResource = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 1\n"

func TestSyntaxErrorStandalone(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "in.yaml"), []byte(syntaxResource), 0o644))
	// the patch key indented one space too far, on line 9
	must(t, os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\n"+
		"metadata:\n  name: p\npatches:\n- target:\n    kind: Deployment\n    name: api\n   patch: |\n    spec:\n      replicas: 2\n"), 0o644))
	r := run(t, dir, nil, nil, bin, "bad.yaml", "in.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, `bad.yaml, line 9: "   patch: …": the indentation of this line matches no key above it`) {
		t.Errorf("config: want exit 2 and line 9 shown\n%s", r)
	}
	// a resource on stdin with a second ': ' on line 6
	must(t, os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\n"+
		"metadata:\n  name: p\npatches:\n- target: {kind: Deployment}\n  patch: '{spec: {replicas: 2}}'\n"), 0o644))
	r = run(t, dir, nil, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b: c\n"), bin, "ok.yaml")
	if r.code != 2 || !strings.Contains(r.stderr, `stdin, line 6: "  a: …": a ': ' where a plain value goes`) {
		t.Errorf("stdin: want exit 2 and line 6 shown\n%s", r)
	}
}

// TestSyntaxErrorKptRender: a misindented line inside an inline patch is
// told by its line in the config file kpt render names.
func TestSyntaxErrorKptRender(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	pkg := t.TempDir()
	must(t, os.WriteFile(filepath.Join(pkg, "deploy.yaml"), []byte(syntaxResource), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "patches.yaml"), []byte(`# patches for every Deployment
apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: p
patches:
- target:
    kind: Deployment
  patch: |
    spec:
      replicas: 2
      template:
        spec:
          containers: []
     strategy: {}
`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "Kptfile"), []byte("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n"+
		"pipeline:\n  mutators:\n  - exec: "+bin+"\n    configPath: patches.yaml\n"), 0o644))
	r := run(t, pkg, nil, nil, kpt(t), "fn", "render", "--allow-exec", pkg)
	want := `patches[0]: patch: line 15 of patches.yaml: " strategy: …": the indentation of this line matches no key above it`
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, want) {
		t.Errorf("want the render to fail with %q\n%s", want, r)
	}
}

// TestSyntaxErrorFlowBracket: a kustomize field path's [ in a {map}
// written on one line is told on that line, with the fix, where it was
// blamed on the config's last line with no hint (issue 30).
func TestSyntaxErrorFlowBracket(t *testing.T) {
	bin := requireFunction(t, "structured-replacement")
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "in.yaml"), []byte("apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - {name: http, port: 80}\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(`apiVersion: fn.patchwork.dev/v1alpha1
kind: StructuredReplacement
metadata:
  name: ports
replacements:
- source: {kind: Service, name: web, fieldPath: spec.ports.[name=http].port}
  targets:
  - select: {kind: Service}
    fieldPaths:
    - spec.ports.0.targetPort
- sourceValue: "8080"
  targets:
  - select: {kind: Service}
`), 0o644))
	r := run(t, dir, nil, nil, bin, "config.yaml", "in.yaml")
	want := `config.yaml, line 6: "- source: …": a [ or { inside a value of a {map} or [list] written on one line starts another there: quote the value, as in {fieldPath: "spec.ports.[name=http].port"}`
	if r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("want exit 2 and line 6 with the fix\n%s", r)
	}
}
