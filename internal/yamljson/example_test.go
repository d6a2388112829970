package yamljson_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
)

// The JSON form of a container keeps the keys in the order they were
// written, and each scalar's YAML type: the quoted "8080" stays a string.
func ExampleEncode() {
	n, err := yaml.Parse(`name: web
ports:
- containerPort: 8080
  name: "8080"
env: {}
`)
	if err != nil {
		panic(err)
	}
	b, err := yamljson.Encode(n.YNode(), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"name":"web","ports":[{"containerPort":8080,"name":"8080"}],"env":{}}
}
