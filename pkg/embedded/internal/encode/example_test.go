package encode_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	yaml "go.yaml.in/yaml/v3"
)

func ExampleYAMLScalar() {
	for _, s := range []string{"web", "yes", "a: b", "a😀"} {
		fmt.Println(encode.YAMLScalar("!!str", s, nil, false, "\n"))
	}
	// Output:
	// web
	// "yes"
	// "a: b"
	// "a\U0001f600"
}

func ExampleYAMLLayout_AfterKey() {
	v := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "port"}, {Kind: yaml.ScalarNode, Tag: "!!int", Value: "80"},
	}}
	l := encode.YAMLLayout{Unit: 2, NL: "\n"}
	fmt.Printf("spec:%s\n", l.AfterKey(v, 0))
	fmt.Println(encode.JSONLayout{Colon: ":", Unit: "  "}.Render(v))
	// Output:
	// spec:
	//   port: 80
	// {"port":80}
}
