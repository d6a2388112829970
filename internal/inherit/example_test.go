package inherit_test

import (
	"fmt"

	yaml "go.yaml.in/yaml/v3"

	"github.com/patchwork-krm/patchwork/internal/inherit"
)

// A container inherits its resources through a << key. To edit them, an
// editor works on the expanded copy: what every YAML reader sees, with the
// container's own keys winning over the merged ones.
func ExampleExpand() {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(`defaults: &defaults
  image: nginx:1.27
  imagePullPolicy: IfNotPresent
containers:
- <<: *defaults
  name: web
  image: nginx:1.28
`), &doc); err != nil {
		panic(err)
	}
	fmt.Println(inherit.Contains(&doc))
	expanded, err := inherit.Expand(&doc, nil)
	if err != nil {
		panic(err)
	}
	out, err := yaml.Marshal(expanded)
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// true
	// defaults:
	//     image: nginx:1.27
	//     imagePullPolicy: IfNotPresent
	// containers:
	//     - imagePullPolicy: IfNotPresent
	//       name: web
	//       image: nginx:1.28
}
