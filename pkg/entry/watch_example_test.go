package entry_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// A transform watches each resource an entry applies to: with explain:
// true the run tells what changed, field by field; validate: (warn by
// default) checks what changed against the schema.
func ExampleWatch() {
	res := yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 1}\n")
	req := &fnrun.Request{Items: []*yaml.RNode{res}, Config: yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")}
	w := &entry.Watch{Req: req, Checks: entry.Checks{Explain: true}}

	step := w.Before("patches[0]", res)
	_ = res.PipeE(yaml.Lookup("spec"), yaml.SetField("replicas", yaml.NewStringRNode("3")))
	step.Done()
	w.Finish()

	for _, r := range fnrun.Identity.Process(req).Results {
		fmt.Printf("%s: %s\n", r.Severity, r.Message)
	}
	// Output:
	// warning: patches[0]: apps/v1 Deployment api: spec.replicas: the schema wants an integer, got the string "3"
	// info: patches[0]: apps/v1 Deployment api: spec.replicas: 1 → "3"
}
