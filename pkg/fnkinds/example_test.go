package fnkinds_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
)

// The function that takes a config type, and the types one function takes.
func ExampleTakenBy() {
	fmt.Println(fnkinds.TakenBy()["builtin/PatchTransformer"])
	fmt.Println(fnkinds.PodSpecPatch.Name, fnkinds.PodSpecPatch.Kinds)
	// Output:
	// multi-patch
	// podspec-patch [fn.patchwork.dev/v1alpha1/PodSpecPatch]
}
