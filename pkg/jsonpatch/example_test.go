package jsonpatch_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api # the public API
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: api
        image: "registry.example.com/api:1.4"
`

// A JSON patch written in YAML, applied to a Deployment: the fields it does
// not touch keep their comments and quoting.
func ExampleOps_Apply() {
	ops, err := jsonpatch.ParseOps(yaml.MustParse(`
- op: replace
  path: /spec/replicas
  value: 3
- op: add
  path: /spec/template/spec/containers/0/args
  value: [--port=8080]
`))
	if err != nil {
		panic(err)
	}
	doc := yaml.MustParse(deployment)
	if err := ops.Apply(doc, nil); err != nil {
		panic(err)
	}
	fmt.Print(doc.MustString())
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: api # the public API
	// spec:
	//   replicas: 3
	//   template:
	//     spec:
	//       containers:
	//       - name: api
	//         image: "registry.example.com/api:1.4"
	//         args:
	//         - --port=8080
}

// A failing operation is named, with what the document has where its path
// stops; the document is left as it was.
func ExampleOps_Apply_error() {
	ops, err := jsonpatch.ParseOps(yaml.MustParse(`[{"op": "replace", "path": "/spec/replica", "value": 3}]`))
	if err != nil {
		panic(err)
	}
	doc := yaml.MustParse(deployment)
	fmt.Println(ops.Apply(doc, nil))
	fmt.Println(doc.MustString() == deployment)
	// Output:
	// op[0] replace /spec/replica: /spec has no key "replica" (did you mean /spec/replicas? keys there: replicas, template)
	// true
}

// An RFC 7386 merge patch: maps merge, null deletes.
func ExampleMergePatch_Apply() {
	patch, err := jsonpatch.ParseMergePatch(yaml.MustParse(`{"metadata": {"labels": {"tier": "backend"}}, "spec": {"replicas": null}}`))
	if err != nil {
		panic(err)
	}
	doc := yaml.MustParse(deployment)
	if err := patch.Apply(doc, nil); err != nil {
		panic(err)
	}
	fmt.Print(doc.MustString())
	// Output:
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata:
	//   name: api # the public API
	//   labels:
	//     tier: backend
	// spec:
	//   template:
	//     spec:
	//       containers:
	//       - name: api
	//         image: "registry.example.com/api:1.4"
}
