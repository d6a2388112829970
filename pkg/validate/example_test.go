package validate_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
	"github.com/patchwork-krm/patchwork/pkg/validate"
)

// A patch set replicas to a string and misspelt a container's pull
// policy: the API server would reject both. The labels it did not touch
// are not looked at.
func ExampleChanges() {
	res := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: api, labels: {tier: 3}}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: app:1}
`)
	before, _ := treediff.Snapshot(res.YNode())
	spec := res.Field("spec").Value
	_ = spec.PipeE(yaml.SetField("replicas", yaml.NewStringRNode("3")))
	ctr, _ := spec.Pipe(yaml.Lookup("template", "spec", "containers", "[name=app]"))
	_ = ctr.PipeE(yaml.SetField("imagePullPolicy", yaml.NewStringRNode("always")))

	changes, _ := treediff.Diff(before.Root(), res.YNode(), treediff.Options{Origin: before.Origin})
	rule := schema.Builtin().Rule("apps/v1", "Deployment")
	for _, f := range validate.Changes(rule, res.YNode(), changes, validate.Options{}) {
		fmt.Printf("%s: %s\n", f.Where, f)
	}
	// Output:
	// spec.replicas: the schema wants an integer, got the string "3"
	// spec.template.spec.containers[name=app].imagePullPolicy: the schema wants one of Always, IfNotPresent, Never, got the string "always"
}
