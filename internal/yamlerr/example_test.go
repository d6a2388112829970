package yamlerr_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlerr"
)

// A key indented one space too far: yaml.v3 names the line its map starts
// on; Locate finds the line that breaks.
func ExampleLocate() {
	text := []byte("patches:\n- target:\n    kind: Deployment\n   patch: |\n    spec: {}\n")
	var n yaml.Node
	err := yaml.Unmarshal(text, &n)
	fmt.Println(err)
	if s, ok := yamlerr.Locate(text, err); ok {
		fmt.Println(s)
	}
	// Output:
	// yaml: line 1: did not find expected key
	// line 4: "   patch: …": the indentation of this line matches no key above it: the keys of one map line up, and a value is indented under its own key (yaml: did not find expected key)
}
