package fnrun

import (
	"bytes"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
)

// written is the ResourceList with the results node, as the runner writes it.
func written(t testing.TB, n *yaml.RNode) string {
	var buf bytes.Buffer
	if err := (rlio.Codec{}).Write(&buf, &rlio.List{APIVersion: "config.kubernetes.io/v1", Kind: "ResourceList", Results: n}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// marshalledAll is the results node the long way, as kyaml's framework
// makes it: the reference resultsNode is held to.
func marshalledAll(t testing.TB, rs framework.Results) *yaml.RNode {
	b, err := yaml.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	n, err := yaml.Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sameResults fails when the results come out otherwise than through
// yaml.Marshal and yaml.Parse.
func sameResults(t testing.TB, rs framework.Results) {
	t.Helper()
	got, err := resultsNode(rs)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := written(t, got), written(t, marshalledAll(t, rs)); g != w {
		t.Errorf("results written otherwise than marshalled:\n--- got ---\n%s--- want ---\n%s", g, w)
	}
}

func TestResultsNodeAsMarshalled(t *testing.T) {
	res := yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: prod, annotations: {config.kubernetes.io/path: a/b.yaml}}\n")
	var rs framework.Results
	for _, msg := range []string{
		"plain", "a: b", "3", "true", "yes", "null", "~", "", " leading", "trailing ", "two\nlines", "ends\n",
		`quote " and ' both`, "#hash", "- dash", "x: \"y\"", "tab\there", "ünïcödé → arrow", "\x01control", "{flow}", "[x]", "*alias", "&a", "!tag", "%pct", "@at", "`tick",
		"spec.replicas: 1 → \"3\"", "0x1F", "1e3", ".inf", "2001-12-14", "12:30:45", "a\u2028b", "very long " + string(bytes.Repeat([]byte("word "), 40)),
	} {
		rs = append(rs, result(framework.Warning, "patches[0]", res, msg, msg), result(framework.Info, "", nil, "", msg))
	}
	rs = append(rs, &framework.Result{Message: "m", File: &framework.File{Path: "p", Index: 2}},
		&framework.Result{Message: "m", ResourceRef: &yaml.ResourceIdentifier{}, Field: &framework.Field{}},
		&framework.Result{Message: "v", Field: &framework.Field{Path: "x", CurrentValue: 3}, Tags: map[string]string{"a": "b"}})
	sameResults(t, rs)
}

func FuzzResultsNode(f *testing.F) {
	for _, s := range []string{"a: b", "3", "two\nlines", "x\u0085y", "  "} {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, msg, field, name string) {
		sameResults(t, framework.Results{{Message: msg, Severity: framework.Info,
			ResourceRef: &yaml.ResourceIdentifier{NameMeta: yaml.NameMeta{Name: name}}, Field: &framework.Field{Path: field}}})
	})
}
