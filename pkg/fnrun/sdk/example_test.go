package sdk_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/sdk"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
)

// A Go program built on the kpt SDK runs multi-patch as one of its own
// processors; fn.AsMain(sdk.Processor(multipatch.Function)) would make it
// the whole program.
func ExampleProcessor() {
	in := bytes.NewBufferString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api
  spec:
    replicas: 1
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: MultiPatch
  metadata:
    name: scale
  patches:
  - target: {kind: Deployment}
    patch: '{"spec": {"replicas": 3}}'
`)
	if err := fn.Execute(sdk.Processor(multipatch.Function), in, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata:
	//     name: api
	//   spec:
	//     replicas: 3
	// functionConfig:
	//   apiVersion: fn.patchwork.dev/v1alpha1
	//   kind: MultiPatch
	//   metadata:
	//     name: scale
	//   patches:
	//   - target: {kind: Deployment}
	//     patch: '{"spec": {"replicas": 3}}'
	// results:
	// - message: 'patches[0]: 1 resource changed (1 selected)'
	//   severity: info
}
