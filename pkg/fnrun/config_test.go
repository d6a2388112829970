package fnrun

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config that is not an object — a JSON patch file given as CONFIG, a
// functionConfig that is a list, metadata that is a list — once panicked
// with a Go stack trace or gave "internal error … please report". It is a
// config error: exit 1, a message naming what is wrong.
func TestMalformedConfigIsAConfigError(t *testing.T) {
	cases := map[string]string{
		"- op: add\n  path: /x\n  value: 1\n": "the function config is a list, not a map",
		"[1, 2]\n":                            "the function config is a list, not a map",
		"just text\n":                         "the function config is a string, not a map",
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: [1]\n":                         "metadata: want a map, got a list (line 3)",
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: [1]}\n":                 "metadata.name: want a string, got a list",
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: a, annotations: [1]}\n": "metadata.annotations: want a map, got a list",
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: a, labels: {a: [1]}}\n": "metadata.labels.a: want a string, got a list",
		"apiVersion: [fn.patchwork.dev/v1alpha1]\nkind: Test\nmetadata: {name: a}\n":                 "apiVersion: want a string, got a list (line 1)",
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: {a: b}\nmetadata: {name: a}\n":                 "kind: want a string, got a map (line 2)",
	}
	dir := t.TempDir()
	res := filepath.Join(dir, "r.yaml")
	os.WriteFile(res, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644)
	f := testFunction(func(r *Request) error { t.Error("ran"); return nil })
	for cfg, want := range cases {
		// standalone
		path := filepath.Join(dir, "config.yaml")
		os.WriteFile(path, []byte(cfg), 0o644)
		var out, errOut bytes.Buffer
		code := Command(f, []string{path, res}, nil, &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "internal error") {
			t.Errorf("standalone %q: exit %d, stderr %q; want exit 1 and %q", cfg, code, errOut.String(), want)
		}
		// in a ResourceList, as kpt and kustomize send it
		rl := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n" + indent(cfg)
		out.Reset()
		errOut.Reset()
		code = Command(f, nil, strings.NewReader(rl), &out, &errOut)
		want, _, _ = strings.Cut(want, " (line") // lines count from the ResourceList's start
		if code != 1 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "internal error") {
			t.Errorf("ResourceList %q: exit %d, stderr %q; want exit 1 and %q", cfg, code, errOut.String(), want)
		}
	}
}

func indent(s string) string {
	lines := strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "") + "\n"
}

// An item whose apiVersion, kind, name or namespace is not a string was
// passed through silently (never selected, or selected under an empty name).
func TestMalformedItemIdentityIsAnError(t *testing.T) {
	for item, want := range map[string]string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [1]}\n":              "v1 ConfigMap : metadata.name: must be a string (line 3)",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: {}}\n": "v1 ConfigMap a: metadata.namespace: must be a string (line 3)",
		"apiVersion: v1\nkind: [ConfigMap]\nmetadata: {name: a}\n":              "v1  a: kind: must be a string (line 2)",
		"apiVersion: {v: 1}\nkind: ConfigMap\nmetadata: {name: a}\n":            " ConfigMap a: apiVersion: must be a string (line 1)",
	} {
		dir := t.TempDir()
		cfg := filepath.Join(dir, "config.yaml")
		os.WriteFile(cfg, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\n"), 0o644)
		res := filepath.Join(dir, "r.yaml")
		os.WriteFile(res, []byte(item), 0o644)
		f := testFunction(func(r *Request) error { t.Error("ran"); return nil })
		var out, errOut bytes.Buffer
		if code := Command(f, []string{cfg, res}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), want) {
			t.Errorf("%q: exit %d, %q; want exit 1 and %q", item, code, errOut.String(), want)
		}
	}
}
