package fnruntest_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// Every result of a golden case is checked for Go jargon (CheckMessages):
// the signs that a library's error or a fmt verb reached the user
// unexplained. A message in the user's words has none.
func ExampleJargon() {
	for _, msg := range []string{
		`patches[0]: apps/v1 Deployment prod/api: spec.replica: not a field of a Deployment (did you mean spec.replicas?)`,
		`patches[0]: json: cannot unmarshal string into Go struct field Patch.type of type int`,
		`replacements[1]: %!w(<nil>)`,
	} {
		fmt.Printf("%q\n", fnruntest.Jargon(msg))
	}
	// Output:
	// ""
	// "Go struct"
	// "%!"
}
