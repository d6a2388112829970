package suggest_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/suggest"
)

// A patch names fields a Container does not have; Nearest finds what the
// user most likely meant, or nothing when no field is close.
func ExampleNearest() {
	fields := []string{"name", "image", "imagePullPolicy", "ports", "resources", "volumeMounts"}
	for _, typo := range []string{"imgae", "volumeMount", "imagePolicy", "sidecar"} {
		fmt.Printf("%s: %q\n", typo, suggest.Nearest(typo, fields))
	}
	// Output:
	// imgae: "image"
	// volumeMount: "volumeMounts"
	// imagePolicy: "imagePullPolicy"
	// sidecar: ""
}
