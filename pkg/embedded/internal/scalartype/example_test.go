package scalartype_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	yaml "go.yaml.in/yaml/v3"
)

func ExampleKept() {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	fmt.Println(scalartype.Kept("!!int", str("9090"))) // a port stays a number
	fmt.Println(scalartype.Kept("!!int", str("http"))) // unless the text is none
	fmt.Println(scalartype.Kept("!!str", str("9090"))) // a string stays a string
	fmt.Println(scalartype.Kept("", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}))
	// Output:
	// !!int
	// !!str
	// !!str
	// !!bool
}
