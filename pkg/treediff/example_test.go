package treediff_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

// A resource is copied before a patch goes in, and compared after: one
// change per place, list elements by their merge keys.
func ExampleDiff() {
	res := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: app:1}
`)
	before, _ := treediff.Snapshot(res.YNode())
	t := schema.Builtin().Lookup("apps/v1", "Deployment")
	patch := yaml.MustParse(`spec:
  replicas: 3
  template:
    spec:
      containers:
      - {name: app, image: app:2}
      - {name: proxy, image: envoy}
`)
	if _, err := smp.MergeWith(res, patch, t, smp.Options{}); err != nil {
		panic(err)
	}
	changes, _ := treediff.Diff(before.Root(), res.YNode(), treediff.Options{Origin: before.Origin, Type: t})
	for _, c := range changes {
		fmt.Printf("%s %s\n", c.Where(), c.Op)
	}
	// Output:
	// spec.replicas changed
	// spec.template.spec.containers[name=app].image changed
	// spec.template.spec.containers[name=proxy] added
}
