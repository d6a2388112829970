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

// Messages say what a value is in one wording; a Secret's values are not
// shown.
func ExampleDescribe() {
	secret := yaml.MustParse("stringData: {pin: 1234, token: abc, config: {a: 1}}\n").YNode()
	data := yamltree.Lookup(secret, "stringData")
	for _, k := range []string{"pin", "token", "config"} {
		fmt.Printf("%s: %s; in a Secret, %s\n", k, yamltree.Describe(yamltree.Lookup(data, k)), yamltree.DescribeSecret(yamltree.Lookup(data, k), true))
	}
	// Output:
	// pin: the number 1234; in a Secret, a number
	// token: a string; in a Secret, a string
	// config: a map; in a Secret, a map
}
