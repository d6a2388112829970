package rlio_test

import (
	"fmt"
	"os"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
)

// A ResourceList read, its annotations migrated for the transform, one item
// changed, and the list written back: the bytes kyaml's ByteReadWriter
// writes.
func ExampleCodec() {
	in := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app # the app's settings
    annotations:
      config.kubernetes.io/path: app.yaml
  data: {mode: slow}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: config
`)
	var codec rlio.Codec
	list, err := codec.Read(in)
	if err != nil {
		panic(err)
	}
	migration, err := codec.Migrate(list.Items)
	if err != nil {
		panic(err)
	}
	// the transform
	if err := list.Items[0].PipeE(yaml.Lookup("data"), yaml.SetField("mode", yaml.NewStringRNode("fast"))); err != nil {
		panic(err)
	}
	if err := migration.Reconcile(list.Items); err != nil {
		panic(err)
	}
	if err := codec.Write(os.Stdout, list); err != nil {
		panic(err)
	}
	fmt.Println(list.Items[0] == nil) // written items are given up
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: v1
	//   kind: ConfigMap
	//   metadata:
	//     name: app # the app's settings
	//     annotations:
	//       config.kubernetes.io/path: app.yaml
	//   data: {mode: fast}
	// functionConfig:
	//   apiVersion: v1
	//   kind: ConfigMap
	//   metadata:
	//     name: config
	// true
}
