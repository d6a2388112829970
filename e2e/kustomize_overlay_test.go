package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestKustomizeMergeIntoBaseGenerator builds e2e/overlay/prod with real
// kustomize: the base generates ConfigMap demo with configMapGenerator, the
// overlay merges into its JSON value with merge-values-generator under
// transformers:. kustomize hashes the result and the Deployment follows.
func TestKustomizeMergeIntoBaseGenerator(t *testing.T) {
	kz := kustomize(t)
	bin, ok := env.built["merge-values-generator"]
	if !ok {
		t.Skip("merge-values-generator is not built")
	}
	dir := t.TempDir()
	copyDir(t, filepath.Join(env.root, "e2e", "overlay"), dir)
	prod := filepath.Join(dir, "prod")
	rel, err := filepath.Rel(prod, bin)
	if err != nil {
		t.Fatal(err)
	}
	markExec(t, filepath.Join(prod, "merge-settings.yaml"), rel)
	r := run(t, prod, nil, nil, kz, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	if r.code != 0 {
		t.Fatalf("kustomize build failed\n%s", r)
	}
	var cm, deploy *kyaml.RNode
	for _, doc := range strings.Split(r.stdout, "\n---\n") {
		n := kyaml.MustParse(doc)
		switch n.GetKind() {
		case "ConfigMap":
			cm = n
		case "Deployment":
			deploy = n
		}
	}
	if cm == nil || deploy == nil {
		t.Fatalf("missing resources in\n%s", r.stdout)
	}
	name := cm.GetName()
	if !strings.HasPrefix(name, "demo-") || len(name) != len("demo-")+10 {
		t.Errorf("ConfigMap name %q has no hash suffix", name)
	}
	got := cm.GetDataMap()["config.json"]
	want := `{
  "config": {
    "loglevel": "debug",
    "parameter": {
      "foo": "bar",
      "baz": "qux"
    },
    "hostname": "www.example.com"
  }
}`
	if got != want {
		t.Errorf("merged config.json:\n%s\nwant:\n%s", got, want)
	}
	ref, err := deploy.Pipe(kyaml.Lookup("spec", "template", "spec", "volumes", "[name=config]", "configMap", "name"))
	if err != nil || ref == nil || ref.YNode().Value != name {
		t.Errorf("the Deployment's volume does not follow the ConfigMap to %q:\n%s", name, deploy.MustString())
	}
}
