package fnrun_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// scaleConfig is the config of scale. fnconfig.Decode refuses fields it
// does not name, so it names the ones every config has too.
type scaleConfig struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Replicas   int            `json:"replicas"`
}

// scale is a small function: it sets spec.replicas on every Deployment.
var scale = fnrun.Function{
	Name:  "scale",
	Short: "set the replicas of every Deployment",
	Kinds: []string{"example.com/v1/Scale"},
	Run: func(req *fnrun.Request) error {
		var config scaleConfig
		if err := fnconfig.Decode(req.Config, &config); err != nil {
			return err
		}
		n := 0
		for _, it := range req.Items {
			if it.GetKind() != "Deployment" {
				continue
			}
			replicas := yaml.NewScalarRNode(strconv.Itoa(config.Replicas))
			replicas.YNode().Tag = yaml.NodeTagInt
			if err := it.PipeE(yaml.LookupCreate(yaml.MappingNode, "spec"), yaml.SetField("replicas", replicas)); err != nil {
				return err
			}
			n++
		}
		req.Summarize("scale", "%s scaled", fnrun.Plural(n, "Deployment"))
		return nil
	},
}

// A ResourceList in, the ResourceList out with the function's results, as
// kpt and kustomize run a function.
func ExampleRunBytes() {
	out, outcome, err := fnrun.RunBytes(scale, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api # the public API
  spec:
    replicas: 1
functionConfig:
  apiVersion: example.com/v1
  kind: Scale
  metadata:
    name: scale
  replicas: 3
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	fmt.Println(outcome.Failed)
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata:
	//     name: api # the public API
	//   spec:
	//     replicas: 3
	// functionConfig:
	//   apiVersion: example.com/v1
	//   kind: Scale
	//   metadata:
	//     name: scale
	//   replicas: 3
	// results:
	// - message: 'scale: 1 Deployment scaled'
	//   severity: info
	// false
}

// A config with a misspelt field fails the run (a binary exits 1): an
// error result naming the field and the one meant, and the items written
// back exactly as they came.
func ExampleRunBytes_error() {
	out, outcome, err := fnrun.RunBytes(scale, []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: api}
  spec: {replicas: 1}
functionConfig:
  apiVersion: example.com/v1
  kind: Scale
  metadata: {name: scale}
  replica: 3
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	fmt.Println(outcome.Failed)
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - apiVersion: apps/v1
	//   kind: Deployment
	//   metadata: {name: api}
	//   spec: {replicas: 1}
	// functionConfig:
	//   apiVersion: example.com/v1
	//   kind: Scale
	//   metadata: {name: scale}
	//   replica: 3
	// results:
	// - message: 'config Scale "scale": unknown field "replica" (line 12); did you mean replicas?'
	//   severity: error
	// true
}

// Standalone, on the command line: `scale CONFIG [FILE...]` applies the
// config to a YAML stream (stdin here) and prints it. Results go to stderr,
// here passed stdout so that the example shows them.
func ExampleCommand() {
	dir, err := os.MkdirTemp("", "scale")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	config := filepath.Join(dir, "scale.yaml")
	if err := os.WriteFile(config, []byte("apiVersion: example.com/v1\nkind: Scale\nmetadata: {name: scale}\nreplicas: 2\n"), 0o644); err != nil {
		panic(err)
	}
	in := strings.NewReader(`apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
---
apiVersion: v1
kind: Service
metadata: {name: api}
`)
	code := fnrun.Command(scale, []string{config}, in, os.Stdout, os.Stdout)
	fmt.Println("exit code", code)
	// Output:
	// info: scale: 1 Deployment scaled
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata: {name: api}
	// spec:
	//   replicas: 2
	// ---
	// apiVersion: v1
	// kind: Service
	// metadata: {name: api}
	// exit code 0
}
