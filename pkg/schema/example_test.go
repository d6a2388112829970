package schema_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// How the lists of a Deployment merge: containers by name, a container's
// ports by containerPort and protocol (which defaults to TCP), its args not
// at all (a patch replaces them).
func ExampleSchema_Lookup() {
	deployment := schema.Builtin().Lookup("apps/v1", "Deployment")
	containers := deployment.Field("spec").Field("template").Field("spec").Field("containers")
	fmt.Println(containers.List())
	ports := containers.Element().Field("ports")
	fmt.Println(ports.List())
	fmt.Println(ports.KeyDefault("protocol"))
	fmt.Println(containers.Element().Field("args").List())
	// Output:
	// map [name]
	// map [containerPort protocol]
	// TCP true
	// atomic []
}

// A CustomResourceDefinition in the ResourceList teaches the schema how its
// kind's lists merge.
func ExampleSchema_WithCRDs() {
	crd := yaml.MustParse(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gateways.example.com
spec:
  group: example.com
  names: {kind: Gateway, plural: gateways}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              listeners:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port, protocol]
                items:
                  type: object
                  properties:
                    port: {type: integer}
                    protocol: {type: string}
                    hostname: {type: string}
`)
	s, ignored, err := schema.Builtin().WithCRDs([]*yaml.RNode{crd})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ignored))
	fmt.Println(s.Lookup("example.com/v1", "Gateway").Field("spec").Field("listeners").List())
	// Output:
	// 0
	// map [port protocol]
}

// A patch with a misspelled field, caught before the merge would add it.
func ExampleUnknownFields() {
	patch := yaml.MustParse(`spec:
  replica: 3
  template:
    spec:
      containers:
      - name: app
        imagePullPolice: Always
`)
	shape := schema.Builtin().Shape("apps/v1", "Deployment")
	for _, u := range schema.UnknownFields(patch, shape) {
		fmt.Printf("%s (did you mean %s?)\n", u.FullPath(), u.Suggestion)
	}
	// Output:
	// spec.replica (did you mean replicas?)
	// spec.template.spec.containers[name=app].imagePullPolice (did you mean imagePullPolicy?)
}

// A declaration one letter off leads to no list: Reach says where it
// stopped and what is near, for a message that the lists it meant are
// replaced whole.
func ExampleListKeys_Reach() {
	doc := yaml.MustParse("spec:\n  tasks:\n  - name: test\n").YNode()
	for _, path := range []string{"spec.tasks", "spec.task", "spec"} {
		r := schema.ListKeys{Path: fieldpath.MustParse(path), Keys: []string{"name"}}.Reach(doc, schema.ReachOptions{Root: "the resource"})
		if r.Lists > 0 {
			fmt.Printf("%s: %d list\n", path, r.Lists)
		} else {
			fmt.Printf("%s: %s\n", r.At, r.Why)
		}
	}
	// Output:
	// spec.tasks: 1 list
	// spec.task: spec has no key "task" (did you mean spec.tasks?)
	// spec: spec is a map, not a list (lists in it: tasks)
}
