package scalar_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/scalar"
)

func ExampleNeedsQuotes() {
	for _, s := range []string{"1e_3", "0_x1F", "on", "12:30", "500m", "v1"} {
		fmt.Printf("%s: %v\n", s, scalar.NeedsQuotes(s))
	}
	// Output:
	// 1e_3: true
	// 0_x1F: true
	// on: true
	// 12:30: true
	// 500m: false
	// v1: false
}

func ExampleCanBePlain() {
	for _, s := range []string{"a: b", "a,b", "on", "a😀"} {
		fmt.Printf("%s: block %v, flow %v, needs quotes %v\n", s, scalar.CanBePlain(s, false), scalar.CanBePlain(s, true), scalar.NeedsQuotes(s))
	}
	// Output:
	// a: b: block false, flow false, needs quotes false
	// a,b: block true, flow false, needs quotes false
	// on: block true, flow true, needs quotes true
	// a😀: block false, flow false, needs quotes false
}
