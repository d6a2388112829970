package yamlstream_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlstream"
)

// A patch file of two documents, an empty one between them: the empty one
// is skipped.
func ExampleSplit() {
	docs, err := yamlstream.Split([]byte("kind: Deployment\n---\n# nothing here\n---\n- op: remove\n  path: /spec\n"))
	if err != nil {
		panic(err)
	}
	for _, d := range docs {
		switch d.Kind {
		case yaml.MappingNode:
			fmt.Println("a map, first key", d.Content[0].Value)
		case yaml.SequenceNode:
			fmt.Println("a list of", len(d.Content))
		}
	}
	// Output:
	// a map, first key kind
	// a list of 1
}
