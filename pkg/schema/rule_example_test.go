package schema_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// What the values of a Deployment may be: replicas an int32, a
// container's imagePullPolicy one of three values, a container required to
// have a name.
func ExampleSchema_Rule() {
	d := schema.Builtin().Rule("apps/v1", "Deployment")
	spec := d.Fields["spec"]
	fmt.Println(spec.Fields["replicas"].Type, spec.Fields["replicas"].Format)
	ctr := spec.Fields["template"].Fields["spec"].Fields["containers"].Element()
	fmt.Println(ctr.Fields["imagePullPolicy"].Enum, ctr.Required)
	_, known := spec.Field("replica")
	fmt.Println(known)
	// Output:
	// integer int32
	// [Always IfNotPresent Never] [name]
	// false
}
