package yamltree_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// fieldpath decides what a matcher selects; Tree shows it yaml nodes.
func ExampleTree() {
	list := yaml.MustParse("- {name: app, image: a}\n- {name: proxy, image: b}\n").YNode()
	sel, _ := fieldpath.Select(yamltree.Tree{}, list, fieldpath.MustParse("[name=proxy]")[0])
	for _, pos := range sel.Positions {
		img, _ := yamltree.Tree{}.Field(yamltree.Child(list, pos), "image")
		fmt.Println(pos, img)
	}
	// Output: 1 b
}
