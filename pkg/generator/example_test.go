package generator_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator"
)

// An overlay's configMapGenerator with behavior: merge and mergeValues:
// the YAML under application.yaml is deep-merged into the base's value
// instead of replacing it (its comment stays), the ConfigMap is named with
// the hash of its new content, and the Deployment's reference follows.
func ExampleFunction() {
	out, _, err := fnrun.RunBytes(generator.Function, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: MergeValuesGenerator
  metadata: {name: prod}
  configMapGenerator:
  - name: app
    behavior: merge
    mergeValues:
    - {key: application.yaml, format: yaml}
    literals:
    - application.yaml: |
        logging:
          level: warn
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: app}
  data:
    application.yaml: |
      server:
        port: 8080 # the containerPort
      logging:
        level: debug
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: app}
  spec:
    template:
      spec:
        containers:
        - name: app
          image: example/app:1.0
          envFrom:
          - configMapRef: {name: app}
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: v1
	//   kind: ConfigMap
	//   metadata: {name: app-52t57bktct, annotations: {fn.patchwork.dev/generated-from: app}}
	//   data:
	//     application.yaml: |
	//       server:
	//         port: 8080 # the containerPort
	//       logging:
	//         level: warn
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata: {name: app}
	//   spec:
	//     template:
	//       spec:
	//         containers:
	//         - name: app
	//           image: example/app:1.0
	//           envFrom:
	//           - configMapRef: {name: app-52t57bktct}
	// functionConfig:
	//   apiVersion: fn.patchwork.dev/v1alpha1
	//   kind: MergeValuesGenerator
	//   metadata: {name: prod}
	//   configMapGenerator:
	//   - name: app
	//     behavior: merge
	//     mergeValues:
	//     - {key: application.yaml, format: yaml}
	//     literals:
	//     - application.yaml: |
	//         logging:
	//           level: warn
	// results:
	// - message: 'configMapGenerator[0]: merged into v1 ConfigMap app-52t57bktct'
	//   severity: info
}
