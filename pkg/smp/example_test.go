package smp_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// A strategic merge patch on a Deployment: containers merge by name, ports
// by containerPort and protocol, so the patch changes the app container's
// image, adds a port and a sidecar, and leaves the rest, comments included,
// as it was.
func ExampleMerge() {
	deployment := yaml.MustParse(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  template:
    spec:
      containers:
      - name: app # the web server
        image: nginx:1.27
        ports:
        - containerPort: 80
`)
	patch := yaml.MustParse(`spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.28
        ports:
        - containerPort: 9113
          name: metrics
      - name: log-shipper
        image: fluent/fluent-bit:3.2
`)
	t := schema.Builtin().Lookup("apps/v1", "Deployment")
	if err := smp.Validate(patch, t); err != nil {
		panic(err)
	}
	if err := smp.Merge(deployment, patch, t); err != nil {
		panic(err)
	}
	fmt.Print(deployment.MustString())
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: web
	// spec:
	//   template:
	//     spec:
	//       containers:
	//       - name: app # the web server
	//         image: nginx:1.28
	//         ports:
	//         - containerPort: 80
	//         - containerPort: 9113
	//           name: metrics
	//       - name: log-shipper
	//         image: fluent/fluent-bit:3.2
}

// Validate needs no document: it finds what would make the patch fail
// on any, here a container without the name the list merges by.
func ExampleValidate() {
	patch := yaml.MustParse(`spec:
  template:
    spec:
      containers:
      - image: nginx:1.28
`)
	fmt.Println(smp.Validate(patch, schema.Builtin().Lookup("apps/v1", "Deployment")))
	// Output:
	// spec.template.spec.containers: element 0 lacks "name": the list merges by [name] and "name" has no default, so the element cannot be matched; add "name" to it
}

// MergeElements tells what became of each keyed element the patch names;
// a Tally over many resources finds a patch that changes container "app"
// where there is one and adds an image-less "app" where there is not.
func ExampleTally() {
	patch := yaml.MustParse(`spec:
  template:
    spec:
      containers:
      - name: app
        resources: {limits: {memory: 512Mi}}
`)
	t := schema.Builtin().Lookup("apps/v1", "Deployment")
	var tally smp.Tally
	for i, containerName := range []string{"app", "worker"} {
		d := yaml.MustParse(fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: %s
        image: example/%s:1.0
`, containerName, containerName))
		elements, err := smp.MergeElements(d, patch, t)
		if err != nil {
			panic(err)
		}
		tally.Add(i, elements)
	}
	for _, f := range tally.Findings() {
		fmt.Printf("%s: merged in %v, added to %v, without an image in %v\n", f.Path, f.Merged, f.Created, f.NoImage)
	}
	// Output:
	// spec.template.spec.containers[name=app]: merged in [0], added to [1], without an image in [1]
}
