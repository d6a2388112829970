package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inside a kustomize build, resources renamed earlier (namePrefix,
// nameSuffix, namespace, a patch) reach our functions with kustomize's
// previous-ID annotations. These tests build overlays with real kustomize
// and compare our functions, selecting by the base's names, with kustomize's
// built-in equivalents.

// earlierNamesBase is a base whose resources an overlay renames.
var earlierNamesBase = map[string]string{
	"base/kustomization.yaml": `resources: [resources.yaml]
`,
	"base/resources.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  level: debug
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: original-name
data:
  level: info
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    metadata:
      annotations:
        level: unset
    spec:
      containers:
      - name: web
        image: example/web:1.0
`,
}

// overlayCommon renames everything: namePrefix, nameSuffix, namespace.
const overlayCommon = `resources: [../base]
namePrefix: prod-
nameSuffix: -v1
namespace: prod
`

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// buildOverlay runs kustomize build on dir/name and returns its resources by id.
func buildOverlay(t *testing.T, dir, name string) map[string]map[string]any {
	t.Helper()
	r := run(t, filepath.Join(dir, name), nil, nil, kustomize(t), "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if r.code != 0 {
		t.Fatalf("kustomize build %s failed\n%s", name, r)
	}
	got := map[string]map[string]any{}
	for _, obj := range splitDocs(t, []byte(r.stdout)) {
		addByID(t, got, withoutBookkeeping(obj))
	}
	return got
}

// TestKustomizeReplacementByBaseNames: structured-replacement as an
// overlay's transformer selects the source, the target and the reject by
// the base's names; kustomize's built-in replacements: gives the same.
func TestKustomizeReplacementByBaseNames(t *testing.T) {
	bin := requireFunction(t, "structured-replacement")
	dir := t.TempDir()
	writeTree(t, dir, earlierNamesBase)
	const rules = `- source: {kind: ConfigMap, name: settings, fieldPath: data.level}
  targets:
  - select: {kind: ConfigMap}
    reject:
    - name: original-name
    fieldPaths: [data.level]
  - select: {kind: Deployment, name: web}
    fieldPaths: [spec.template.metadata.annotations.level]
`
	writeTree(t, dir, map[string]string{
		"builtin/kustomization.yaml": overlayCommon + "replacements:\n" + rules,
		"ours/kustomization.yaml":    overlayCommon + "transformers: [replace.yaml]\n",
		"ours/replace.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: StructuredReplacement
metadata:
  name: by-base-names
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
replacements:
` + rules,
	})
	want := buildOverlay(t, dir, "builtin")
	got := buildOverlay(t, dir, "ours")
	compareResources(t, "kustomize replacements:", want, "structured-replacement", got)
	// Not vacuous: the replacement happened and the reject held.
	if d := got["apps/v1 Deployment prod/prod-web-v1"]; !strings.Contains(toYAML(d), "level: debug") {
		t.Errorf("the Deployment did not get the value:\n%s", toYAML(d))
	}
	if c := got["v1 ConfigMap prod/prod-original-name-v1"]; !strings.Contains(toYAML(c), "level: info") {
		t.Errorf("the rejected ConfigMap was changed:\n%s", toYAML(c))
	}
}

// TestKustomizePatchByBaseNames: multi-patch as an overlay's transformer
// applies a target-less strategic patch naming the base's Deployment and a
// targeted patch naming the base's ConfigMap; kustomize's built-in patches:
// gives the same.
func TestKustomizePatchByBaseNames(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	writeTree(t, dir, earlierNamesBase)
	const deployPatch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
`
	// kustomize wants a strategic patch to name its resource even with a target
	const cmPatch = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  extra: "yes"
`
	writeTree(t, dir, map[string]string{
		"builtin/kustomization.yaml": overlayCommon + `patches:
- patch: |-
` + indent(deployPatch, "    ") + `- target: {kind: ConfigMap, name: settings}
  patch: |-
` + indent(cmPatch, "    "),
		"ours/kustomization.yaml": overlayCommon + "transformers: [patch.yaml]\n",
		"ours/patch.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: by-base-names
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
patches:
- patch: |-
` + indent(deployPatch, "    ") + `- target: {kind: ConfigMap, name: settings}
  patch: |-
` + indent(cmPatch, "    "),
	})
	want := buildOverlay(t, dir, "builtin")
	got := buildOverlay(t, dir, "ours")
	compareResources(t, "kustomize patches:", want, "multi-patch", got)
	if d := got["apps/v1 Deployment prod/prod-web-v1"]; !strings.Contains(toYAML(d), "replicas: 3") {
		t.Errorf("the Deployment was not patched:\n%s", toYAML(d))
	}
}

// TestKustomizeFindsWhatWeRenamed: multi-patch renames a ConfigMap
// (allowNameChange) in an overlay; the overlay above it selects the
// ConfigMap by its old name with kustomize's built-in patches:, which finds
// it only because the rename was recorded as kustomize records its own.
func TestKustomizeFindsWhatWeRenamed(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	writeTree(t, dir, earlierNamesBase)
	writeTree(t, dir, map[string]string{
		"rename/kustomization.yaml": "resources: [../base]\ntransformers: [rename.yaml]\n",
		"rename/rename.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: rename
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
patches:
- target: {kind: ConfigMap, name: settings}
  patch: |-
    metadata:
      name: renamed-settings
  options:
    allowNameChange: true
`,
		"top/kustomization.yaml": `resources: [../rename]
patches:
- target: {kind: ConfigMap, name: settings}
  patch: |-
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: settings
    data:
      found: by-old-name
- patch: |-
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: settings
    data:
      strategic: by-old-name
`,
	})
	got := buildOverlay(t, dir, "top")
	cm, ok := got["v1 ConfigMap renamed-settings"]
	if !ok {
		t.Fatalf("no ConfigMap renamed-settings in %v", keys(got))
	}
	text := toYAML(cm)
	if !strings.Contains(text, "found: by-old-name") || !strings.Contains(text, "strategic: by-old-name") {
		t.Errorf("kustomize's patches did not find the ConfigMap by its old name:\n%s", text)
	}
	if strings.Contains(text, "previousNames") {
		t.Errorf("kustomize left its build annotations in the output:\n%s", text)
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func keys(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestKustomizeRenameCarriesReferences: multi-patch renames the base's
// ConfigMap (allowNameChange) in an overlay; the Deployment's references
// follow, as with kustomize's built-in PatchTransformer in the same place.
// (No namePrefix here: with one, kustomize itself would fix the references
// through the earlier name the prefix recorded, and the test would prove
// nothing about ours.)
func TestKustomizeRenameCarriesReferences(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"base/kustomization.yaml": "resources: [resources.yaml]\n",
		"base/resources.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: old-name
data:
  level: info
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: web
        image: example/web:1.0
        env:
        - name: LEVEL
          valueFrom:
            configMapKeyRef:
              name: old-name
              key: level
        envFrom:
        - configMapRef:
            name: old-name
`,
	})
	const patch = `apiVersion: v1
kind: ConfigMap
metadata:
  name: new-name
`
	writeTree(t, dir, map[string]string{
		// kustomize's own PatchTransformer, listed under transformers: to
		// run where ours runs.
		"builtin/kustomization.yaml": "resources: [../base]\ntransformers: [rename.yaml]\n",
		"builtin/rename.yaml": `apiVersion: builtin
kind: PatchTransformer
metadata:
  name: rename
target: {kind: ConfigMap, name: old-name}
options: {allowNameChange: true}
patch: |-
` + indent(patch, "  "),
		"ours/kustomization.yaml": "resources: [../base]\ntransformers: [rename.yaml]\n",
		"ours/rename.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: rename
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
patches:
- target: {kind: ConfigMap, name: old-name}
  options: {allowNameChange: true}
  patch: |-
` + indent(patch, "    "),
	})
	want := buildOverlay(t, dir, "builtin")
	got := buildOverlay(t, dir, "ours")
	compareResources(t, "kustomize patches:", want, "multi-patch", got)
	d := toYAML(got["apps/v1 Deployment web"])
	if _, ok := got["v1 ConfigMap new-name"]; !ok {
		t.Errorf("no ConfigMap new-name in %v", keys(got))
	}
	if strings.Contains(d, "old-name") || !strings.Contains(d, "new-name") {
		t.Errorf("the Deployment's references did not follow the rename:\n%s", d)
	}
}

// TestKustomizeMergeByBaseNameAfterPrefix: the overlay adds namePrefix and
// namespace; merge-values-generator under transformers: still merges into
// the base's generated ConfigMap by its base name, kustomize hashes the
// result and the Deployment follows.
func TestKustomizeMergeByBaseNameAfterPrefix(t *testing.T) {
	bin := requireFunction(t, "merge-values-generator")
	dir := t.TempDir()
	copyDir(t, filepath.Join(env.root, "e2e", "overlay"), dir)
	prod := filepath.Join(dir, "prod")
	kz := filepath.Join(prod, "kustomization.yaml")
	raw, err := os.ReadFile(kz)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kz, append(raw, "namePrefix: prod-\nnamespace: prod\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	markExec(t, filepath.Join(prod, "merge-settings.yaml"), bin)
	got := buildOverlay(t, dir, "prod")
	var cm, deploy map[string]any
	for id, obj := range got {
		switch {
		case strings.HasPrefix(id, "v1 ConfigMap prod/prod-demo-"):
			cm = obj
		case id == "apps/v1 Deployment prod/prod-web":
			deploy = obj
		}
	}
	if cm == nil || deploy == nil {
		t.Fatalf("missing the hashed prod-demo ConfigMap or the Deployment in %v", keys(got))
	}
	if text := toYAML(cm); !strings.Contains(text, "www.example.com") || !strings.Contains(text, "loglevel") {
		t.Errorf("the overlay's values were not merged into the base's:\n%s", text)
	}
	name := cm["metadata"].(map[string]any)["name"].(string)
	if !strings.Contains(toYAML(deploy), "name: "+name) {
		t.Errorf("the Deployment does not follow the ConfigMap to %s:\n%s", name, toYAML(deploy))
	}
}

// TestKustomizeFindsWhatWeHashed: merge-values-generator merges into a
// plain ConfigMap of the base and names the result after its content hash;
// the overlay above selects it by its old name with kustomize's built-in
// patches:, which finds it because the rename was recorded.
func TestKustomizeFindsWhatWeHashed(t *testing.T) {
	bin := requireFunction(t, "merge-values-generator")
	dir := t.TempDir()
	writeTree(t, dir, earlierNamesBase)
	writeTree(t, dir, map[string]string{
		"merge/kustomization.yaml": "resources: [../base]\ntransformers: [merge.yaml]\n",
		"merge/merge.yaml": `apiVersion: fn.patchwork.dev/v1alpha1
kind: MergeValuesGenerator
metadata:
  name: merge
  annotations:
    config.kubernetes.io/function: |
      exec:
        path: ` + bin + `
configMapGenerator:
- name: settings
  behavior: merge
  literals: [level=warn]
`,
		"top/kustomization.yaml": `resources: [../merge]
patches:
- target: {kind: ConfigMap, name: settings}
  patch: |-
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: settings
    data:
      found: by-old-name
`,
	})
	got := buildOverlay(t, dir, "top")
	var cm map[string]any
	for id, obj := range got {
		if strings.HasPrefix(id, "v1 ConfigMap settings-") {
			cm = obj
		}
	}
	if cm == nil {
		t.Fatalf("no hashed ConfigMap settings-<hash> in %v", keys(got))
	}
	if text := toYAML(cm); !strings.Contains(text, "found: by-old-name") || !strings.Contains(text, "level: warn") {
		t.Errorf("kustomize's patch did not find the hashed ConfigMap by its old name:\n%s", text)
	}
}
