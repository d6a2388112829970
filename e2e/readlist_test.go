package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

// The inputs below once made the runner's hand-written reader (cutting a
// ResourceList into items by its lines) lose or invent data with exit 0.
// Reading is now kyaml's reader (internal/rlio), so each behaves as kyaml
// makes it behave, or is refused where kyaml itself would silently read
// only part of the list. Each goes through a binary's stdin, as kpt and
// kustomize send it.

const readListConfig = `functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: MultiPatch
  metadata:
    name: nothing
  patches:
  - target: {kind: NoSuchKind}
    patch: |
      metadata:
        labels: {x: y}
`

// readListItems: a Deployment whose annotation value holds note, in a list
// whose items are indented under "items:" (the shape that lost data).
func readListItems(note string) string {
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"  - apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: api\n      annotations:\n        note: " + note + "\n" +
		"    spec:\n      replicas: 3\n      template:\n        spec:\n          containers:\n          - name: app\n            image: app:1\n" +
		readListConfig
}

// kyamlItems is what kyaml's ByteReadWriter writes for the input, without
// results: what the binary must write, up to its results.
func kyamlItems(t *testing.T, in string) string {
	t.Helper()
	rw := &kio.ByteReadWriter{Reader: strings.NewReader(in), KeepReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		t.Fatalf("kyaml refuses the input: %v", err)
	}
	var b bytes.Buffer
	rw.Writer = &b
	if err := rw.Write(items); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// withoutResults cuts the results the function added.
func withoutResults(out string) string {
	if i := strings.Index(out, "\nresults:\n"); i >= 0 {
		return out[:i+1]
	}
	return out
}

func TestReadListUnicodeLineBreak(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	for name, note := range map[string]string{
		// YAML reads U+2028, U+2029 and U+0085 as line breaks: what follows
		// a break is a new line at column 0
		"a list entry after the break": "a\u2028- kind: Secret",
		"a --- after the break":        "a\u2029---",
		"a ... after the break":        "a\u0085...",
	} {
		t.Run(name, func(t *testing.T) {
			r := run(t, dir, nil, []byte(readListItems(note)), bin)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "reading ResourceList") {
				t.Fatalf("want exit 2, nothing written and the reading error (kyaml's, or ours where kyaml would drop the rest)\n%s", r)
			}
		})
	}
	// where YAML reads no break (a quoted value), the item is read whole
	in := readListItems("\"a\u2028b\"")
	r := run(t, dir, nil, []byte(in), bin)
	if r.code != 0 || withoutResults(r.stdout) != kyamlItems(t, in) || !strings.Contains(r.stdout, "replicas: 3") {
		t.Fatalf("want exit 0 and kyaml's bytes\n%s\n--- kyaml\n%s", r, kyamlItems(t, in))
	}
}

func TestReadListInventsNoItems(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	// a double-quoted value spanning lines, one of which reads "items:" at
	// column 0 followed by lines shaped like a Secret
	in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nnote: \"x\nitems:\n- apiVersion: v1\n  kind: Secret\n" +
		"  metadata:\n    name: injected\n  stringData:\n    password: hunter2\n\"\n" + readListConfig
	r := run(t, t.TempDir(), nil, []byte(in), bin)
	if r.code != 0 || strings.Contains(r.stdout, "name: injected") || !strings.Contains(r.stdout, "items: []") ||
		withoutResults(r.stdout) != kyamlItems(t, in) {
		t.Fatalf("want no items (the Secret is text inside a string), as kyaml reads it\n%s", r)
	}
}

func TestReadListKeepsCommentsAsKyaml(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	dir := t.TempDir()
	for _, first := range []string{`"v1"`, `'v1'`, `{a: b}`, `[a]`} {
		// a comment after an item's first value, quoted or flow, then a
		// blank line and more comments, in an item nothing changes
		in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
			"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: before\n" +
			"- first: " + first + " # after the first value\n\n  # head of kind\n\n  kind: ConfigMap\n  apiVersion: v1\n  metadata:\n    name: a\n" +
			"  # foot of metadata\n\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: after\n" + readListConfig
		r := run(t, dir, nil, []byte(in), bin)
		// an item nothing changed is written as read (issue 29), comments
		// and blank lines included; kyaml's writer would close the gaps
		items := in[strings.Index(in, "items:\n"):strings.Index(in, readListConfig)]
		if r.code != 0 || !strings.Contains(r.stdout, "kind: ResourceList\n"+items+"functionConfig:\n") {
			t.Fatalf("first value %s: want exit 0 and the items as read\n%s\n--- items\n%s", first, r, items)
		}
	}
}

// TestKyamlIOEscapeHatch: PATCHWORK_KYAML_IO=1 writes through kyaml's own
// writer: the same bytes, on an input the fast writer takes itself.
func TestKyamlIOEscapeHatch(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	in := readListItems("plain")
	dir := t.TempDir()
	fast := run(t, dir, nil, []byte(in), bin)
	slow := run(t, dir, []string{"PATCHWORK_KYAML_IO=1"}, []byte(in), bin)
	if fast.code != 0 || slow.code != 0 || fast.stdout != slow.stdout {
		t.Fatalf("want the same output\n%s\n%s", fast, slow)
	}
}

// TestStandaloneLists: resources inside kind: List and FooList documents
// (how some operators ship their dashboards) are selected as kustomize
// selects them, and written back inside their List, in place.
func TestStandaloneLists(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "dashboards.yaml"), []byte(`# the dashboards, one list
apiVersion: v1
kind: ConfigMapList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-a
  data:
    dash.json: '{"title": "A", "host": "old"}'
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-b # second
  data:
    dash.json: '{"title": "B", "host": "old"}'
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: env
  data:
    HOST: grafana.example.com
`), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "replace.yaml"), []byte(`apiVersion: fn.patchwork.dev/v1alpha1
kind: StructuredReplacement
metadata:
  name: host
replacements:
- source: {kind: ConfigMap, name: env, fieldPath: data.HOST}
  targets:
  - select: {kind: ConfigMap, name: dash-.*}
    fieldPaths: ['data.dash\.json.host']
`), 0o644))
	r := run(t, dir, nil, nil, requireFunction(t, "structured-replacement"), "replace.yaml", "dashboards.yaml")
	want := `# the dashboards, one list
apiVersion: v1
kind: ConfigMapList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-a
  data:
    dash.json: '{"title": "A", "host": "grafana.example.com"}'
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-b # second
  data:
    dash.json: '{"title": "B", "host": "grafana.example.com"}'
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: env
  data:
    HOST: grafana.example.com
`
	if r.code != 0 || r.stdout != want {
		t.Fatalf("want both dashboards changed inside their List\n%s\n--- want\n%s", r, want)
	}
}
