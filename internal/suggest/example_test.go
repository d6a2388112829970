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

// A pattern that selects nothing, or does not compile, is explained in
// terms of what the user wrote: the glob or anchor meant, or what RE2
// accepts.
func ExampleRegexp() {
	fmt.Println(suggest.Regexp("(?!istio).*", "to leave containers out, use rejectContainerNames"))
	meant, why, _ := suggest.Meant("^shop-")
	fmt.Printf("%s: %s\n", meant, why)
	// Output:
	// invalid or unsupported Perl syntax at `(?!` (Go regular expressions are RE2: no lookaround; to leave containers out, use rejectContainerNames)
	// shop-.*: patterns match the whole value, so ^ and $ are implied
}
