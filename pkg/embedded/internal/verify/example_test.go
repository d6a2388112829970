package verify_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/verify"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/write"
	yaml "go.yaml.in/yaml/v3"
)

func ExampleVerify() {
	old, _ := span.ParseJSON(`{"a": 1, "b": 2}`)
	checks := map[string]write.Check{"/0": {Want: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "5"}}}
	_, err := verify.Verify(old, `{"a": 5, "b": 2}`, checks)
	fmt.Println(err)
	_, err = verify.Verify(old, `{"a": 5, "b": 3}`, checks)
	fmt.Println(err)
	// Output:
	// <nil>
	// the scalar at /1 changed
}
