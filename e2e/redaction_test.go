package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 28, "Secret values in messages": no form of a Secret's value
// reaches what a function prints (stderr, kpt's results), whatever the
// message: a YAML syntax error's line, a library's error, a value written
// as a YAML alias, a value cut or escaped.

// shownBy runs function bin on a Secret-holding package (files, config
// config.yaml) standalone and under kpt fn eval, and returns, for each
// client, what the client shows: stderr and kpt's results, and stdout
// when the run failed (a successful run prints the resources, which hold
// the values). want is the exit code of the standalone run.
func shownBy(t *testing.T, bin string, files map[string]string, want int) map[string]string {
	t.Helper()
	dir := t.TempDir()
	pkg := filepath.Join(dir, "pkg")
	must(t, os.MkdirAll(pkg, 0o755))
	var inputs []string
	for name, text := range files {
		at := filepath.Join(dir, name)
		if name != "config.yaml" {
			at = filepath.Join(pkg, name)
			inputs = append(inputs, at)
		}
		must(t, os.WriteFile(at, []byte(text), 0o644))
	}
	shown := map[string]string{}
	r := run(t, dir, nil, nil, bin, append([]string{"config.yaml"}, inputs...)...)
	if r.code != want {
		t.Errorf("standalone: exit %d, want %d\n%s", r.code, want, r)
	}
	shown["standalone"] = r.stderr
	if r.code != 0 {
		shown["standalone"] += r.stdout
	}
	if want == 2 {
		return shown // the input is no YAML: kpt would refuse it itself
	}
	results := filepath.Join(dir, "results")
	r = run(t, dir, nil, nil, kpt(t), "fn", "eval", "pkg", "--exec", bin, "--fn-config", "config.yaml", "--results-dir", results)
	shown["kpt fn eval"] = r.stdout + r.stderr + readTree(t, results)
	return shown
}

// neverShown fails when any client shows one of the texts, and, when
// marker is set, when a client does not show "<redacted>".
func neverShown(t *testing.T, shown map[string]string, marker bool, texts ...string) {
	t.Helper()
	for client, out := range shown {
		for _, s := range texts {
			if strings.Contains(out, s) {
				t.Errorf("%s shows %q:\n%s", client, s, out)
			}
		}
		if marker && !strings.Contains(out, "<redacted>") {
			t.Errorf("%s redacted nothing:\n%s", client, out)
		}
	}
}

const secretHead = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n"

const patchConfig = `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: p
patches:
- target: {kind: ConfigMap}
  patch: |
    data: {a: b}
`

// Item 1: a syntax error on a line of a Secret's text shows the line's
// number, and its key only where YAML reads a key there: not the value
// after a tab that follows the key, nor a line that goes on with a plain
// or quoted value.
func TestSyntaxErrorShowsNoSecretLine(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	for name, c := range map[string]struct{ text, line string }{
		"tab after the key":       {secretHead + "  password:\tcorrect horse: battery staple\n", `line 6: "  password: …"`},
		"plain value going on":    {secretHead + "  password: first words\n    correct horse: battery staple\n", "line 7: a ': '"},
		"quoted value going on":   {secretHead + "  password: \"first words\n    correct horse \\q battery staple\"\n", "line 7: yaml: found unknown escape"},
		"quoted value unclosed":   {secretHead + "  password: \"first words\n    correct horse: battery staple\n", "line 7: a quoted value that is never closed"},
		"value in a flow map":     {secretHead + "  x: {a: 1,\n    correct horse: battery staple: x}\n", `line 6: "  x: …"`}, // told where the {map} opened (issue 30)
		"key after a plain value": {secretHead + "  password: first words\n token: correct horse battery\n", `line 7: " token: …"`},
	} {
		t.Run(name, func(t *testing.T) {
			shown := shownBy(t, bin, map[string]string{"config.yaml": patchConfig, "secret.yaml": c.text}, 2)
			if !strings.Contains(shown["standalone"], c.line) {
				t.Errorf("want %q\n%s", c.line, shown["standalone"])
			}
			neverShown(t, shown, false, "correct", "horse", "battery", "first words")
		})
	}
	// a patch text in the config is told by its line in the config, by the
	// same rule, under kpt too
	cfg := strings.Replace(patchConfig, "    data: {a: b}\n", "    stringData:\n      password: first words\n        correct horse: battery staple\n", 1)
	cfg = strings.Replace(cfg, "{kind: ConfigMap}", "{kind: Secret}", 1)
	shown := shownBy(t, bin, map[string]string{"config.yaml": cfg, "secret.yaml": secretHead + "  password: x\n"}, 1)
	if !strings.Contains(shown["standalone"], "patches[0]: patch: line 10 of config.yaml: a ': '") {
		t.Errorf("want the config's line 10\n%s", shown["standalone"])
	}
	neverShown(t, shown, false, "correct", "horse", "battery", "first words")
}

// Item 2: a library's error quotes a token of a Secret's value (go-toml:
// `strconv.ParseFloat: parsing "31337e99999"`), here of the base value in
// a Secret and of the overlay, a secretGenerator's literal; every message
// is redacted, library errors included, and a token is a piece of the
// value.
func TestLibraryErrorTokenRedacted(t *testing.T) {
	bin := requireFunction(t, "merge-values-generator")
	config := `apiVersion: fn.patchwork.dev/v1alpha1
kind: MergeValuesGenerator
metadata: {name: g}
secretGenerator:
- name: db
  behavior: merge
  mergeValues:
  - {key: n.toml, format: toml}
  literals: ['n.toml=OVERLAY']
`
	base := "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\nstringData:\n  n.toml: |\n    pin = BASE\n    user = \"admin\"\n"
	for _, c := range [][2]string{{"31337e99999", "x = 1"}, {"1", "pin = 27182e99999"}} {
		files := map[string]string{"config.yaml": strings.Replace(config, "OVERLAY", c[1], 1), "secret.yaml": strings.Replace(base, "BASE", c[0], 1)}
		neverShown(t, shownBy(t, bin, files, 1), true, "31337e9", "27182e9")
	}
}

// Item 3: a stringData value written as a YAML alias, or inherited with
// <<, is registered as the value it stands for; copied into the namespace
// by a JSON patch, it is redacted in every later message that names the
// resource.
func TestAliasedSecretValueRedacted(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	config := `apiVersion: fn.patchwork.dev/v1alpha1
kind: MultiPatch
metadata:
  name: x
patches:
- target: {kind: Secret}
  type: json6902
  patch: |
    - {op: copy, from: /stringData/password, path: /metadata/namespace}
- target: {kind: Secret}
  type: json6902
  patch: |
    - {op: test, path: /metadata/name, value: other}
`
	for _, secret := range []string{
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  annotations: {note: &pw correct-horse-battery}\nstringData:\n  password: *pw\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nbase: &b {password: correct-horse-battery}\nstringData:\n  <<: *b\n",
	} {
		shown := shownBy(t, bin, map[string]string{"config.yaml": config, "secret.yaml": secret}, 1)
		neverShown(t, shown, true, "correct-horse-b")
	}
}

// Item 4: a value a message cuts (at 40 bytes) or escapes (%q: `\"`, `\\`)
// is redacted: every piece of 8 bytes or more of every form of a value.
// Here the kustomize-divergence warning names list elements by their
// values, which the input copied from a Secret.
func TestCutAndEscapedValueRedacted(t *testing.T) {
	bin := requireFunction(t, "structured-replacement")
	const token = "tok-app-0123456789-abcdefghij-klmnopqrstuvwxyz-SECRET"
	const quoted = `app "quoted" \secret`
	input := `apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {token: '` + token + `', quoted: '` + quoted + `'}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers: [{name: app, image: nginx}, {name: '` + token + `'}, {name: '` + quoted + `'}]
`
	config := `apiVersion: fn.patchwork.dev/v1alpha1
kind: StructuredReplacement
metadata: {name: x}
replacements:
- sourceValue: busybox
  targets:
  - select: {kind: Deployment}
    fieldPaths: ["spec.template.spec.containers.[name=app].image"]
`
	shown := shownBy(t, bin, map[string]string{"config.yaml": config, "input.yaml": input}, 0)
	for client, out := range shown {
		if !strings.Contains(out, "kustomize 5.8.2 matches it anywhere") {
			t.Errorf("%s: no divergence warning\n%s", client, out)
		}
	}
	neverShown(t, shown, true, token[:40], token[:8], token[20:28], `app \"quoted\" \\secret`, `\"quoted\"`)
}
