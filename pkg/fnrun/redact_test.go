package fnrun

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The values of redactInput's Secret, and one the transform registers.
const (
	plantString = "hunter2-string-data"
	plantData   = "hunter2-data-value"
	plantOwn    = "hunter2-own-source"
)

var redactInput = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: Secret
  metadata:
    name: db
    annotations:
      config.kubernetes.io/path: 'secret.yaml'
      internal.config.kubernetes.io/path: 'secret.yaml'
  stringData:
    password: ` + plantString + `
  data:
    token: ` + base64.StdEncoding.EncodeToString([]byte(plantData)) + `
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: Test
  metadata:
    name: t
`

// plantedResults returns a result for every field a result can carry,
// each holding secret, and the identities of res.
func plantedResults(secret string, res *yaml.RNode) framework.Results {
	return framework.Results{
		{Severity: framework.Warning, Message: "message " + secret},
		{Severity: framework.Info, Message: "info", ResourceRef: &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: secret, Kind: secret},
			NameMeta: yaml.NameMeta{Name: secret, Namespace: secret}}},
		{Severity: framework.Warning, Message: "field", Field: &framework.Field{Path: "data." + secret, CurrentValue: secret, ProposedValue: []any{secret}}},
		{Severity: framework.Warning, Message: "file", File: &framework.File{Path: secret + ".yaml"}},
		{Severity: framework.Warning, Message: "tags", Tags: map[string]string{"k": secret, secret: "v"}},
		Warningf("entry", res, "path."+secret, "did you mean %s?", secret),
	}
}

// TestRedactEveryField plants each secret value (a stringData value, a
// data value in both forms, a value the transform registers) in every
// field of every kind of result, in the identity of the resource messages
// name (a namespace filled from the Secret), in a returned error, an error
// result and a panic, and checks that none reaches the ResourceList's
// results, stderr, or the standalone command's output.
func TestRedactEveryField(t *testing.T) {
	secrets := []string{plantString, plantData, base64.StdEncoding.EncodeToString([]byte(plantData)), plantOwn}
	type ending struct {
		name string
		end  func(r *Request, secret string) error
	}
	endings := []ending{
		{"success", func(*Request, string) error { return nil }},
		{"error", func(_ *Request, s string) error { return fmt.Errorf("failed on %s", s) }},
		{"error results", func(r *Request, s string) error {
			return framework.Results{Errorf("entry", r.Items[1], s, "no %s", s)}
		}},
		{"panic", func(_ *Request, s string) error { panic("boom " + s) }},
	}
	for _, secret := range secrets {
		for _, e := range endings {
			t.Run(e.name+"/"+secret, func(t *testing.T) {
				f := testFunction(func(r *Request) error {
					r.Secret(plantOwn)
					// the hostile part: a value copied into an identity
					if err := r.Items[1].SetNamespace(secret); err != nil {
						return err
					}
					r.Results = append(r.Results, plantedResults(secret, r.Items[1])...)
					r.Summarize("entry", "changed %s", secret)
					return e.end(r, secret)
				})
				var stdout, stderr bytes.Buffer
				code := Command(f, nil, strings.NewReader(redactInput), &stdout, &stderr)
				if code == 2 {
					t.Fatalf("exit 2: %s", stderr.String())
				}
				results := stdout.String()
				if i := strings.Index(results, "\nresults:"); i >= 0 {
					results = results[i:]
				} else {
					t.Fatalf("no results in the ResourceList:\n%s", stdout.String())
				}
				if !strings.Contains(results, "<redacted>") {
					t.Errorf("nothing was redacted:\n%s", results)
				}
				for what, text := range map[string]string{"the ResourceList's results": results, "stderr": stderr.String()} {
					for _, s := range secrets {
						if strings.Contains(text, s) {
							t.Errorf("%s carry %q:\n%s", what, s, text)
						}
					}
				}
			})
		}
	}
}

// TestRedactStandalone: the standalone command prints results on stderr,
// and an error writing the output goes through the same step.
func TestRedactStandalone(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(cfg, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n"), 0o644))
	in := filepath.Join(dir, "in.yaml")
	must(os.WriteFile(in, []byte("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: "+plantString+"\n"), 0o644))
	f := testFunction(func(r *Request) error {
		r.Results = append(r.Results, plantedResults(plantString, r.Items[0])...)
		return nil
	})
	var stdout, stderr bytes.Buffer
	if code := Command(f, []string{cfg, in}, nil, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if strings.Contains(stderr.String(), plantString) || !strings.Contains(stderr.String(), "<redacted>") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// TestRedactAfterTheRun: an error the runner meets after the transform
// (here, an item whose metadata the transform made a string) is redacted
// too.
func TestRedactAfterTheRun(t *testing.T) {
	f := testFunction(func(r *Request) error {
		m := r.Items[1].YNode()
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == "metadata" {
				m.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: plantString}
			}
		}
		return nil
	})
	var stdout, stderr bytes.Buffer
	code := Command(f, nil, strings.NewReader(redactInput), &stdout, &stderr)
	if strings.Contains(stderr.String(), plantString) {
		t.Errorf("exit %d, stderr carries the secret:\n%s", code, stderr.String())
	}
}

func TestRedactErrorKeepsNil(t *testing.T) {
	var r Request
	r.knowSecrets(nil)
	if r.secrets.Error(nil) != nil {
		t.Error("nil error became non-nil")
	}
	e := errors.New("x")
	if r.secrets.Error(e) != e {
		t.Error("an error without secrets changed")
	}
}

// TestRedactShortValues: a Secret holding values under redact.MinLen bytes
// ("1", "on", "abc") leaves messages readable; its longer values are still
// redacted.
func TestRedactShortValues(t *testing.T) {
	in := strings.Replace(redactInput, "    password: "+plantString+"\n",
		"    password: "+plantString+"\n    flag: \"1\"\n    mode: \"on\"\n    tag: abc\n", 1)
	f := testFunction(func(r *Request) error {
		r.Results = append(r.Results, Warningf("patches[1]", r.Items[1], "data.abc", "1 resource is on; %s", plantString))
		return nil
	})
	var stdout, stderr bytes.Buffer
	if code := Command(f, nil, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "warning: patches[1]: v1 ConfigMap cm: data.abc: 1 resource is on; <redacted>\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
}

// TestKnowSecretsAsReadersRead: a Secret's values are registered as a YAML
// reader reads them: through aliases, << keys, repeated keys, an aliased
// kind, and inside Lists (issue 28, item 3).
func TestKnowSecretsAsReadersRead(t *testing.T) {
	for name, doc := range map[string]string{
		"alias":            "kind: Secret\nmetadata: {name: db, annotations: {a: &pw planted-value}}\nstringData: {password: *pw}\n",
		"alias in data":    "kind: Secret\nx: &d cGxhbnRlZC12YWx1ZQ==\ndata: {password: *d}\n",
		"inherited":        "kind: Secret\nbase: &b {password: planted-value}\nstringData: {<<: *b}\n",
		"inherited field":  "kind: Secret\nbase: &b {stringData: {password: planted-value}}\n<<: *b\n",
		"inherited list":   "kind: Secret\na: &a {x: 1}\nb: &b {stringData: {password: planted-value}}\n<<: [*a, *b]\n",
		"aliased kind":     "metadata: {labels: {k: &k Secret}}\nkind: *k\nstringData: {password: planted-value}\n",
		"repeated key":     "kind: Secret\nstringData: {password: x}\nstringData: {password: planted-value}\n",
		"in a SecretList":  "kind: SecretList\nitems:\n- kind: Secret\n  stringData: {password: planted-value}\n",
		"in a nested List": "kind: List\nitems:\n- kind: List\n  items:\n  - kind: Secret\n    data: {password: cGxhbnRlZC12YWx1ZQ==}\n",
	} {
		t.Run(name, func(t *testing.T) {
			var r Request
			r.knowSecrets([]*yaml.RNode{yaml.MustParse(doc)})
			if got := r.secrets.String("ns planted-value/db"); got != "ns <redacted>/db" {
				t.Errorf("got %q", got)
			}
		})
	}
}

// TestStderrRedactedAsRead: standalone, the Secrets of the files read so
// far redact the error of a later file (here a syntax error whose line's
// key is a value of the first file's Secret).
func TestStderrRedactedAsRead(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"config.yaml": "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n",
		"a.yaml":      "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: " + plantString + "\n",
		"b.yaml":      "apiVersion: v1\nkind: ConfigMap\n" + plantString + ": x: y\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	f := testFunction(func(*Request) error { return nil })
	code := Command(f, []string{filepath.Join(dir, "config.yaml"), filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")}, nil, &stdout, &stderr)
	if code != 2 || strings.Contains(stderr.String(), plantString) || !strings.Contains(stderr.String(), "line 3: \"<redacted>: …\"") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
}
