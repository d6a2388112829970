package fnrun

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
)

// Issue 14, "Suggest what was meant": a kind typo names the kind meant,
// not only the list of accepted ones.
func TestKindTypoSuggestsKind(t *testing.T) {
	f := Function{Name: "structured-replacement", Kinds: []string{
		"fn.patchwork.dev/v1alpha1/StructuredReplacement", "builtin/ReplacementTransformer"}}
	for cfg, want := range map[string]string{
		"apiVersion: fn.patchwork.dev/v1alpha1\nkind: StructuredReplacment\nmetadata: {name: a}\n": "(did you mean StructuredReplacement?)",
		"apiVersion: fn.patchwork.dev/v1\nkind: StructuredReplacement\nmetadata: {name: a}\n":      "(did you mean apiVersion fn.patchwork.dev/v1alpha1?)",
		"apiVersion: builtin\nkind: ReplacementTransfomer\nmetadata: {name: a}\n":                  "(did you mean ReplacementTransformer?)",
		"apiVersion: v1\nkind: ReplacementTransfomer\nmetadata: {name: a}\n":                       "(did you mean builtin/ReplacementTransformer?)",
	} {
		err := f.checkKind(yaml.MustParse(cfg))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v; want %q", cfg, err, want)
		}
	}
	if err := f.checkKind(yaml.MustParse("apiVersion: x/v1\nkind: Unrelated\nmetadata: {name: a}\n")); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("unrelated kind: %v", err)
	}
}

// A config of a type another function takes names that function (issue
// 20), from the table the function hands over (Function.TakenBy), rather
// than a kind it is near to; without the table, the nearest kind it is.
func TestConfigOfAnotherFunctionNamesIt(t *testing.T) {
	f := Function{Name: "structured-replacement", Kinds: []string{"fn.patchwork.dev/v1alpha1/StructuredReplacement"},
		TakenBy: map[string]string{
			"fn.patchwork.dev/v1alpha1/StructuredReplacement":  "structured-replacement",
			"fn.patchwork.dev/v1alpha1/StructuredReplacements": "other",
		}}
	cfg := yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: StructuredReplacements\nmetadata: {name: a}\n")
	want := "(a StructuredReplacements is other's config: run other with it)"
	if err := f.checkKind(cfg); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v; want %q", err, want)
	}
	f.TakenBy = nil
	if err := f.checkKind(cfg); err == nil || !strings.Contains(err.Error(), "(did you mean StructuredReplacement?)") {
		t.Errorf("without TakenBy: %v", err)
	}
}

// kpt fn eval without a config (or with key=value arguments) sends a
// ConfigMap named function-input; the message says a config is required and
// how to pass one, rather than that v1/ConfigMap is not accepted.
func TestNoConfigSaysHowToPassOne(t *testing.T) {
	f := testFunction(func(*Request) error { t.Fatal("ran"); return nil })
	for _, cfg := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata: {}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata: {a: b}\n",
		"",
	} {
		in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n"
		if cfg != "" {
			in += "functionConfig:\n" + indent(cfg)
		}
		_, outcome, err := RunBytes(f, []byte(in))
		if err != nil || !outcome.Failed {
			t.Fatalf("%q: err %v, outcome %+v", cfg, err, outcome)
		}
		msg := outcome.Results[0].Message
		for _, want := range []string{"a function config is required", "--fn-config", "configPath:", "transformers:"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q: %q lacks %q", cfg, msg, want)
			}
		}
	}
}

// Standalone, the config's lines are its file's, and the file is named,
// local-config annotation or not (the examples carry one).
func TestStandaloneUnknownFieldNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/config.yaml"
	cfg := "# a comment\napiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata:\n  name: t\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\nspec:\n  replicaz: 1\n"
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	f := testFunction(func(r *Request) error {
		var into struct {
			APIVersion string         `json:"apiVersion"`
			Kind       string         `json:"kind"`
			Metadata   map[string]any `json:"metadata"`
			Spec       struct {
				Replicas int `json:"replicas"`
			} `json:"spec"`
		}
		return fnconfig.Decode(r.Config, &into)
	})
	var out, errOut bytes.Buffer
	Command(f, []string{path}, strings.NewReader(""), &out, &errOut)
	want := `spec: unknown field "replicaz" (line 9 of ` + path + `); did you mean replicas?`
	if !strings.Contains(errOut.String(), want) {
		t.Errorf("got %q\nwant %q", errOut.String(), want)
	}
}
