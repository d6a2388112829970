package dupkeys_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/dupkeys"
)

// A ConfigMap whose data gives one key twice, and another pair spelled
// differently that readers take for one key.
func ExampleFind() {
	doc := yaml.MustParse(`apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data:
  mode: fast
  mode: slow
  true: a
  True: b
`)
	for _, d := range dupkeys.Find(doc.YNode()) {
		fmt.Printf("%s: %q lines %d and %d\n", d.Path, d.Key, d.Line1, d.Line2)
	}
	fmt.Println(dupkeys.Find(doc.YNode())[0].Message())
	// Output:
	// data: "mode" lines 5 and 6
	// data: "True" lines 7 and 8
	// the key "mode" is given twice in data (lines 5 and 6 of the resource); YAML does not allow it, kustomize refuses it, and readers disagree on which value counts: remove one
}
