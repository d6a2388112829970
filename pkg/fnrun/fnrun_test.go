package fnrun

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A ResourceList as kpt sends it: path annotations, comments, both sequence
// indent styles, quoting.
const kptInput = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api # the API server
    namespace: prod
    annotations:
      config.kubernetes.io/index: '0'
      config.kubernetes.io/path: 'deploy.yaml'
      internal.config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: 'deploy.yaml'
  spec:
    replicas: 1
    template:
      spec:
        containers:
        - name: api
          image: "example/api:1.0"
          args: ['--port', "8080"]
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: settings
    annotations:
      config.kubernetes.io/index: '1'
      config.kubernetes.io/path: 'deploy.yaml'
      internal.config.kubernetes.io/index: '1'
      internal.config.kubernetes.io/path: 'deploy.yaml'
  data:
    config.json: |
      {"a": 1}
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: Test
  metadata:
    name: t
`

func testFunction(run Transform) Function {
	return Function{Name: "test", Kinds: []string{"fn.patchwork.dev/v1alpha1/Test"}, Run: run}
}

func TestIdentityIsByteIdentical(t *testing.T) {
	out, outcome, err := RunBytes(testFunction(func(*Request) error { return nil }), []byte(kptInput))
	if err != nil || outcome.Failed {
		t.Fatalf("err=%v outcome=%+v", err, outcome)
	}
	if string(out) != kptInput {
		t.Fatalf("identity pass changed the ResourceList:\n%s", out)
	}
}

func TestFailedRunLeavesItemsUnmodified(t *testing.T) {
	f := testFunction(func(r *Request) error {
		// change an item, then fail: the change must not leak out
		if err := r.Items[0].PipeE(yaml.SetField("spec", yaml.NewMapRNode(nil))); err != nil {
			return err
		}
		r.Items = r.Items[:1]
		return errors.New("boom")
	})
	out, outcome, err := RunBytes(f, []byte(kptInput))
	if err != nil {
		t.Fatal(err)
	}
	if !outcome.Failed || len(outcome.Results) != 1 || outcome.Results[0].Message != "boom" {
		t.Fatalf("outcome = %+v", outcome)
	}
	want := strings.Replace(kptInput, "functionConfig:", "functionConfig:", 1)
	items := want[:strings.Index(want, "functionConfig:")]
	if !strings.HasPrefix(string(out), items) {
		t.Fatalf("items changed by a failed run:\n%s", out)
	}
	if !strings.Contains(string(out), "results:\n- message: boom\n  severity: error\n") {
		t.Fatalf("no error result in output:\n%s", out)
	}
}

func TestErrorResultsAppendedWithoutErrorFail(t *testing.T) {
	f := testFunction(func(r *Request) error {
		r.Results = append(r.Results, Errorf("patches[0]", r.Items[0], "spec.replicas", "bad %d", 1))
		return nil
	})
	_, outcome, _ := RunBytes(f, []byte(kptInput))
	if !outcome.Failed {
		t.Fatal("an error result must fail the run")
	}
	got := outcome.Results[0]
	if got.Message != "patches[0]: apps/v1 Deployment prod/api: spec.replicas: bad 1" {
		t.Errorf("message = %q", got.Message)
	}
	if got.ResourceRef.Name != "api" || got.ResourceRef.Namespace != "prod" || got.Field.Path != "spec.replicas" || got.File.Path != "deploy.yaml" {
		t.Errorf("result = %+v", got)
	}
}

func TestUnknownConfigKind(t *testing.T) {
	in := strings.Replace(kptInput, "kind: Test", "kind: Tset", 1)
	_, outcome, _ := RunBytes(testFunction(func(*Request) error { t.Fatal("ran"); return nil }), []byte(in))
	if !outcome.Failed || !strings.Contains(outcome.Results[0].Message, `kind "Tset"`) ||
		!strings.Contains(outcome.Results[0].Message, "fn.patchwork.dev/v1alpha1/Test") {
		t.Fatalf("outcome = %+v", outcome.Results)
	}
}

func TestCommandStandaloneAndHelp(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\n"), 0o644)
	res := filepath.Join(dir, "r.yaml")
	os.WriteFile(res, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # keep\n"), 0o644)
	f := testFunction(func(r *Request) error {
		if r.ConfigDir != dir {
			t.Errorf("ConfigDir = %q", r.ConfigDir)
		}
		return nil
	})
	var out, errOut bytes.Buffer
	if code := Command(f, []string{cfg, res}, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if out.String() != "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # keep\n" {
		t.Fatalf("standalone output:\n%s", out.String())
	}
	out.Reset()
	if code := Command(f, []string{"--help"}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "fn.patchwork.dev/v1alpha1/Test") {
		t.Fatalf("help: %d %s", code, out.String())
	}
	failing := testFunction(func(*Request) error { return errors.New("nope") })
	errOut.Reset()
	if code := Command(failing, []string{cfg, res}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "error: nope") {
		t.Fatalf("failing: %d %q", code, errOut.String())
	}
}

func TestConfigDirUnderKptRender(t *testing.T) {
	pkg := t.TempDir()
	os.MkdirAll(filepath.Join(pkg, "fns"), 0o755)
	// kpt names a file that is there: the root comes from it only then.
	os.WriteFile(filepath.Join(pkg, "fns", "config.yaml"), []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n"), 0o644)
	in := strings.Replace(kptInput, "  metadata:\n    name: t\n", `  metadata:
    name: t
    annotations:
      config.kubernetes.io/path: fns/config.yaml
      internal.config.kubernetes.io/package-path: `+pkg+"\n", 1)
	var dir string
	f := testFunction(func(r *Request) error { dir = r.ConfigDir; return nil })
	if _, o, err := RunBytes(f, []byte(in)); err != nil || o.Failed {
		t.Fatal(err, o.Results)
	}
	if dir != filepath.Join(pkg, "fns") {
		t.Fatalf("ConfigDir = %q, want %q", dir, filepath.Join(pkg, "fns"))
	}
}

func TestMalformedMetadataIsAnError(t *testing.T) {
	in := strings.Replace(kptInput, "    name: settings\n", "    name: settings\n    labels: [a]\n", 1)
	f := testFunction(func(*Request) error { t.Fatal("ran"); return nil })
	_, o, err := RunBytes(f, []byte(in))
	if err != nil || !o.Failed || !strings.Contains(o.Results[0].Message, "v1 ConfigMap settings: metadata.labels: must be a map") {
		t.Fatalf("%v %+v", err, o.Results)
	}
}

func TestPanicBecomesAnErrorResult(t *testing.T) {
	f := testFunction(func(*Request) error { panic("boom") })
	out, o, err := RunBytes(f, []byte(kptInput))
	if err != nil || !o.Failed || !strings.Contains(o.Results[0].Message, "internal error: boom") {
		t.Fatalf("%v %+v", err, o.Results)
	}
	if !strings.HasPrefix(string(out), kptInput[:strings.Index(kptInput, "functionConfig:")]) {
		t.Fatal("items changed")
	}
}

func TestToolAnnotationsSurviveTransforms(t *testing.T) {
	f := testFunction(func(r *Request) error {
		// replace the whole annotations map, as a careless patch would
		return r.Items[0].PipeE(yaml.Lookup("metadata"), yaml.SetField("annotations", yaml.NewMapRNode(&map[string]string{"team": "a"})))
	})
	out, o, err := RunBytes(f, []byte(kptInput))
	if err != nil || o.Failed {
		t.Fatal(err, o.Results)
	}
	for _, want := range []string{"config.kubernetes.io/path: 'deploy.yaml'", "internal.config.kubernetes.io/index: '0'", "team: a"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("%q missing from\n%s", want, out)
		}
	}
}

func TestStandaloneKeepsWideSequenceIndentation(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte("apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\n"), 0o644)
	in := "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\nspec:\n  ports:\n    - port: 80\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n  annotations:\n    config.kubernetes.io/path: b.yaml\nspec:\n  ports:\n  - port: 81\n"
	var out, errOut bytes.Buffer
	f := testFunction(func(*Request) error { return nil })
	if code := Command(f, []string{cfg}, strings.NewReader(in), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if out.String() != in {
		t.Fatalf("standalone changed unchanged resources:\n%s", out.String())
	}
}

func TestPlainStreamOnStdinIsAUsageError(t *testing.T) {
	var out, errOut bytes.Buffer
	f := testFunction(func(*Request) error { t.Fatal("ran"); return nil })
	code := Command(f, nil, strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), &out, &errOut)
	if code != 2 || out.Len() != 0 || !strings.Contains(errOut.String(), "test CONFIG [FILE...]") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

// --help prints the usage and then the function's reference (Doc), which is
// what `kpt fn doc --image` shows; an unknown flag prints the usage alone.
func TestHelpPrintsDoc(t *testing.T) {
	f := testFunction(func(*Request) error { return nil })
	f.Doc = "# test\n\n## FunctionConfig reference\n"
	for _, arg := range []string{"--help", "-h", "help"} {
		var out, errOut bytes.Buffer
		if code := Command(f, []string{arg}, nil, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d", arg, code)
		}
		usage, doc, ok := strings.Cut(out.String(), "\n# test\n")
		if !ok || !strings.Contains(usage, "Usage:") || doc != "\n## FunctionConfig reference\n" {
			t.Errorf("%s: want the usage, then the doc:\n%s", arg, out.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := Command(f, []string{"--nope"}, nil, &out, &errOut); code != 2 || strings.Contains(errOut.String(), "FunctionConfig") || !strings.Contains(errOut.String(), "Usage:") {
		t.Errorf("unknown flag: exit %d, stderr:\n%s", code, errOut.String())
	}
}
