package multipatch_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
)

// One strategic merge patch for every Deployment labelled tier=backend:
// containers merge by name, so each api container gets the env var and
// keeps everything else. The frontend does not match and comes out as it
// went in.
func ExampleFunction() {
	out, _, err := fnrun.RunBytes(multipatch.Function, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: MultiPatch
  metadata: {name: backend-debug}
  patches:
  - target: {kind: Deployment, labelSelector: tier=backend}
    patch: |
      spec:
        template:
          spec:
            containers:
            - name: api
              env:
              - {name: LOG_LEVEL, value: debug}
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: orders, labels: {tier: backend}}
  spec:
    template:
      spec:
        containers:
        - name: api
          image: example/orders:2.1 # pinned by release
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, labels: {tier: frontend}}
  spec:
    template:
      spec:
        containers:
        - name: api
          image: example/web:1.0
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata: {name: orders, labels: {tier: backend}}
	//   spec:
	//     template:
	//       spec:
	//         containers:
	//         - name: api
	//           image: example/orders:2.1 # pinned by release
	//           env:
	//           - {name: LOG_LEVEL, value: debug}
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata: {name: web, labels: {tier: frontend}}
	//   spec:
	//     template:
	//       spec:
	//         containers:
	//         - name: api
	//           image: example/web:1.0
	// functionConfig:
	//   apiVersion: fn.patchwork.dev/v1alpha1
	//   kind: MultiPatch
	//   metadata: {name: backend-debug}
	//   patches:
	//   - target: {kind: Deployment, labelSelector: tier=backend}
	//     patch: |
	//       spec:
	//         template:
	//           spec:
	//             containers:
	//             - name: api
	//               env:
	//               - {name: LOG_LEVEL, value: debug}
	// results:
	// - message: 'patches[0]: 1 resource changed (1 selected)'
	//   severity: info
}
