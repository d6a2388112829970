package replacement_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

// kustomize's replacements, with field paths that go on into the JSON held
// in data["config.json"]: the hostname inside it takes the cluster's
// domain, and only the bytes of that value change.
func ExampleFunction() {
	out, _, err := fnrun.RunBytes(replacement.Function, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: StructuredReplacement
  metadata: {name: domain}
  replacements:
  - source: {kind: ConfigMap, name: cluster, fieldPath: data.domain}
    targets:
    - select: {kind: ConfigMap, name: app}
      fieldPaths:
      - data.config\.json.server.hostname
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cluster}
  data:
    domain: prod.example.com
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: app}
  data:
    config.json: |
      {
        "server": {"hostname": "localhost",  "port": 8080},
        "debug": false
      }
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
	//   metadata: {name: cluster}
	//   data:
	//     domain: prod.example.com
	// - apiVersion: v1
	//   kind: ConfigMap
	//   metadata: {name: app}
	//   data:
	//     config.json: |
	//       {
	//         "server": {"hostname": "prod.example.com",  "port": 8080},
	//         "debug": false
	//       }
	// functionConfig:
	//   apiVersion: fn.patchwork.dev/v1alpha1
	//   kind: StructuredReplacement
	//   metadata: {name: domain}
	//   replacements:
	//   - source: {kind: ConfigMap, name: cluster, fieldPath: data.domain}
	//     targets:
	//     - select: {kind: ConfigMap, name: app}
	//       fieldPaths:
	//       - data.config\.json.server.hostname
	// results:
	// - message: 'replacements[0]: 1 resource changed'
	//   severity: info
}
