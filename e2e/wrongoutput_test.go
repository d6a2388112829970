package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStringPatchValues runs patches into strings through multi-patch and a
// value merge through merge-values-generator, standalone, with the values
// of issue 28's items 14 and 15: YAML's .inf, .nan and !!binary, a date, and
// a JSON patch copying the whole document. YAML documents keep them as
// YAML; a JSON document takes a date as a string and refuses what JSON
// cannot spell, by name (both were "internal error (please report)"); a
// copy from "" copies the document as the operations before it left it
// (it copied the document as it was before the patch).
func TestStringPatchValues(t *testing.T) {
	for _, c := range []struct {
		name, function, config, input string
		code                          int
		want                          string // in the output (code 0) or stderr (code 1)
	}{{
		name: "strategic-into-yaml", function: "multi-patch",
		config: stringPatch("app.yaml", "strategic", "a: .inf\nc: -.Inf\nd: .nan\ne: !!binary aGVsbG8="),
		input:  configMap("cm", "app.yaml: |\n    a: 1\n    b: x"),
		want:   "  app.yaml: |\n    a: .inf\n    b: x\n    c: -.Inf\n    d: .nan\n    e: !!binary aGVsbG8=\n",
	}, {
		name: "merge-into-yaml", function: "multi-patch",
		config: stringPatch("app.yaml", "merge", "a: .nan\nb: [.inf]"),
		input:  configMap("cm", "app.yaml: |\n    a: 1"),
		want:   "  app.yaml: |\n    a: .nan\n    b: [.inf]\n",
	}, {
		name: "merge-nan-into-json", function: "multi-patch", code: 1,
		config: stringPatch("app.json", "merge", "b: .nan"),
		input:  configMap("cm", `app.json: '{"a": 1}'`),
		want:   "patches[0]: v1 ConfigMap cm: data.app\\.json: the patch brings the number .nan, which a JSON document cannot hold",
	}, {
		name: "strategic-binary-into-json", function: "multi-patch", code: 1,
		config: stringPatch("app.json", "strategic", "b: !!binary aGVsbG8="),
		input:  configMap("cm", `app.json: '{"a": 1}'`),
		want:   "the patch brings binary data (!!binary), which a JSON document cannot hold",
	}, {
		name: "date-into-json", function: "multi-patch",
		config: stringPatch("app.json", "merge", "b: 2001-12-14"),
		input:  configMap("cm", `app.json: '{"a": 1}'`),
		want:   `app.json: '{"a": 1, "b": "2001-12-14"}'`,
	}, {
		name: "copy-from-whole-document", function: "multi-patch",
		config: stringPatch("app.json", "json6902", `[{op: add, path: /b, value: 2}, {op: copy, from: "", path: /c}]`),
		input:  configMap("cm", `app.json: '{"a": 1}'`),
		want:   `app.json: '{"a": 1, "b": 2, "c": {"a": 1, "b": 2}}'`,
	}, {
		name: "merge-values-nan", function: "merge-values-generator",
		config: "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: values\n" +
			"generatorOptions: {disableNameSuffixHash: true}\nconfigMapGenerator:\n- name: cm\n  behavior: merge\n" +
			"  mergeValues:\n  - key: app.yaml\n    format: yaml\n  literals:\n  - app.yaml: |\n      b: .nan\n      c: .inf\n",
		input: configMap("cm", "app.yaml: |\n    a: .nan\n    b: 1"),
		want:  "  app.yaml: |\n    a: .nan\n    b: .nan\n    c: .inf\n",
	}} {
		t.Run(c.name, func(t *testing.T) {
			bin := requireFunction(t, c.function)
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(c.config), 0o644))
			must(t, os.WriteFile(filepath.Join(dir, "input.yaml"), []byte(c.input), 0o644))
			r := run(t, dir, nil, nil, bin, "config.yaml", "input.yaml")
			shown := r.stdout
			if c.code != 0 {
				shown = r.stderr
			}
			if r.code != c.code || !strings.Contains(shown, c.want) || strings.Contains(r.stderr, "please report") {
				t.Errorf("want exit %d with %q\n%s", c.code, c.want, r)
			}
		})
	}
}

// stringPatch is a multi-patch config patching the ConfigMap key key with a
// patch of type typ.
func stringPatch(key, typ, patch string) string {
	return multiPatch("- target: {kind: ConfigMap}\n  embedded: data." + strings.ReplaceAll(key, ".", `\.`) +
		"\n  type: " + typ + "\n  patch: |\n" + indent(patch, "    "))
}
