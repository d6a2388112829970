package jsonpatch

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api # the API
  labels:
    app: api
spec:
  replicas: 1 # scaled by HPA
  template:
    spec:
      containers:
      # main container
      - name: api
        image: 'example/api:1.0'
        args: ["--port", "8080"]
      - name: log
        image: log:1
`

func apply(t *testing.T, patch string, merge bool) (string, error) {
	t.Helper()
	doc := yaml.MustParse(deployment)
	p := yaml.MustParse(patch)
	var err error
	if merge {
		var m *MergePatch
		if m, err = ParseMergePatch(p); err == nil {
			err = m.Apply(doc, nil)
		}
	} else {
		var o *Ops
		if o, err = ParseOps(p); err == nil {
			err = o.Apply(doc, nil)
		}
	}
	return doc.MustString(), err
}

func TestOpsKeepUntouchedLayout(t *testing.T) {
	got, err := apply(t, `[{op: replace, path: /spec/replicas, value: 3},
	  {op: add, path: /spec/template/spec/containers/1, value: {name: envoy, image: "envoy:1"}},
	  {op: add, path: /metadata/labels/tier, value: backend}]`, false)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"replicas: 1 # scaled by HPA", "replicas: 3 # scaled by HPA",
		"    app: api\n", "    app: api\n    tier: backend\n",
		"      - name: log\n", "      - name: envoy\n        image: envoy:1\n      - name: log\n",
	).Replace(deployment)
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestOpsRemoveAndTest(t *testing.T) {
	got, err := apply(t, `[{op: test, path: /metadata/name, value: api}, {op: remove, path: /spec/template/spec/containers/1}]`, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(got, "log") || !strings.Contains(got, "# main container") {
		t.Fatalf("got:\n%s", got)
	}
}

func TestOpsErrorNamesTheOperation(t *testing.T) {
	_, err := apply(t, `[{op: replace, path: /spec/replicas, value: 2}, {op: replace, path: /spec/paused, value: true}]`, false)
	if err == nil || !strings.Contains(err.Error(), "op[1] replace /spec/paused") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseOpsRejectsBadPatches(t *testing.T) {
	for patch, want := range map[string]string{
		`{op: add}`:                    "list of operations",
		`[{op: frobnicate, path: /a}]`: `unknown op "frobnicate"`,
		`[{op: add, value: 1}]`:        `missing "path"`,
		`[{op: move, path: /a}]`:       `missing "from"`,
	} {
		_, err := ParseOps(yaml.MustParse(patch))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", patch, err, want)
		}
	}
}

func TestMergePatch(t *testing.T) {
	got, err := apply(t, `{metadata: {labels: {app: null, team: a}}, spec: {replicas: 5}}`, true)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"replicas: 1 # scaled by HPA", "replicas: 5 # scaled by HPA",
		"    app: api\n", "    team: a\n",
	).Replace(deployment)
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestScalarTypeChangeDropsQuotes(t *testing.T) {
	doc := yaml.MustParse("a: '1'\nb: x\n")
	o, _ := ParseOps(yaml.MustParse(`[{op: replace, path: /a, value: 2}, {op: replace, path: /b, value: "true"}]`))
	if err := o.Apply(doc, nil); err != nil {
		t.Fatal(err)
	}
	if got := doc.MustString(); got != "a: 2\nb: \"true\"\n" {
		t.Fatalf("got %q", got)
	}
}

func TestParseOpsErrorsAreReadable(t *testing.T) {
	_, err := ParseOps(yaml.MustParse(`[{op: add, path: /a, value: 1}, {op: replace}]`))
	if err == nil || !strings.Contains(err.Error(), "op[1]") {
		t.Fatalf("err = %v", err)
	}
}

func TestUntouchedSpellingsSurvive(t *testing.T) {
	in := "mode: 0o17\nday: 2024-01-01\nflag: True\nnothing: ~\nempty:\nbig: .inf\nbase: &b {x: 1}\nref: *b\nlabels: {a: b}\n"
	doc := yaml.MustParse(in)
	o, _ := ParseOps(yaml.MustParse(`[{op: add, path: /labels/c, value: d}]`))
	if err := o.Apply(doc, nil); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(in, "{a: b}", "{a: b, c: d}", 1)
	if got := doc.MustString(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestMergePatchAddsKeysInThePatchOrder(t *testing.T) {
	for i := 0; i < 20; i++ { // the library's own output order varies run to run
		doc := yaml.MustParse("data:\n  a: x\n")
		m, _ := ParseMergePatch(yaml.MustParse("data: {d: '4', c: '3', b: {z: 1, y: 2}}\nnew: {q: 1, p: 2}\n"))
		if err := m.Apply(doc, nil); err != nil {
			t.Fatal(err)
		}
		// new content takes block style; "y" is quoted as a key, since
		// YAML 1.1 (kubectl) would read it as a boolean
		want := "data:\n  a: x\n  d: \"4\"\n  c: \"3\"\n  b:\n    z: 1\n    \"y\": 2\nnew:\n  q: 1\n  p: 2\n"
		if got := doc.MustString(); got != want {
			t.Fatalf("run %d:\n%s\nwant:\n%s", i, got, want)
		}
	}
}

func TestCommentsStayWithTheirNamedElement(t *testing.T) {
	doc := yaml.MustParse("containers:\n- name: a # first\n  image: a:1\n- name: b # second\n  image: b:1\n- name: c # third\n  image: c:1\n")
	o, _ := ParseOps(yaml.MustParse(`[{op: remove, path: /containers/0}, {op: replace, path: /containers/0/image, value: b:2}, {op: replace, path: /containers/1/image, value: c:2}]`))
	if err := o.Apply(doc, nil); err != nil {
		t.Fatal(err)
	}
	want := "containers:\n- name: b # second\n  image: b:2\n- name: c # third\n  image: c:2\n"
	if got := doc.MustString(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestYAML11KeywordsStayStrings(t *testing.T) {
	doc := yaml.MustParse("a: x\n")
	o, _ := ParseOps(yaml.MustParse(`[{op: add, path: /b, value: "yes"}, {op: replace, path: /a, value: "off"}, {op: add, path: /c, value: "0755"}]`))
	if err := o.Apply(doc, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.MustString(), "a: \"off\"\nb: \"yes\"\nc: \"0755\"\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A document with YAML << keys is patched as readers see it: an
// inherited value can be replaced or removed, editing the anchored map
// leaves the merging map as it was. A patch that changes nothing leaves the
// document as written.
func TestMergeKeys(t *testing.T) {
	const doc = "d: &d {a: 1, b: 2}\nm:\n  <<: *d\n  c: 3\n"
	for _, tc := range []struct{ name, patch, want string }{
		{"remove an inherited value", `[{op: remove, path: /m/a}]`, "d: {a: 1, b: 2}\nm:\n  b: 2\n  c: 3\n"},
		{"replace an inherited value", `[{op: replace, path: /m/a, value: 9}]`, "d: {a: 1, b: 2}\nm:\n  a: 9\n  b: 2\n  c: 3\n"},
		{"edit the anchored map", `[{op: replace, path: /d/a, value: 9}]`, "d: {a: 9, b: 2}\nm:\n  a: 1\n  b: 2\n  c: 3\n"},
		{"test only", `[{op: test, path: /m/a, value: 1}]`, "d: &d {a: 1, b: 2}\nm:\n  !!merge <<: *d\n  c: 3\n"},
		{"merge patch deletes an inherited value", `{m: {b: null}}`, "d: {a: 1, b: 2}\nm:\n  a: 1\n  c: 3\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := yaml.MustParse(doc)
			p := yaml.MustParse(tc.patch)
			var err error
			if p.YNode().Kind == yaml.SequenceNode {
				var o *Ops
				if o, err = ParseOps(p); err == nil {
					err = o.Apply(n, nil)
				}
			} else {
				var m *MergePatch
				if m, err = ParseMergePatch(p); err == nil {
					err = m.Apply(n, nil)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := n.MustString(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
