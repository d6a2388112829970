package fieldpath_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// A replacement target that reaches into the JSON held under
// data["config.json"]: each segment says what it selects, and String writes
// the path back in a form that parses to the same path.
func ExampleParse() {
	p, err := fieldpath.Parse(`data.config\.json.servers.[name=api].ports.0`)
	if err != nil {
		panic(err)
	}
	for _, s := range p {
		switch s.Kind {
		case fieldpath.Match:
			fmt.Printf("%-7s %s=%s\n", s.Kind, s.Key, s.Value)
		case fieldpath.Index:
			fmt.Printf("%-7s %d\n", s.Kind, s.Index)
		default:
			fmt.Printf("%-7s %s\n", s.Kind, s.Key)
		}
	}
	fmt.Println(p)
	// Output:
	// field   data
	// field   config.json
	// field   servers
	// matcher name=api
	// field   ports
	// index   0
	// data.config\.json.servers.[name=api].ports.0
}

// Errors say where in the path text the problem is.
func ExampleParse_error() {
	_, err := fieldpath.Parse("spec.template..spec")
	fmt.Println(err)
	// Output:
	// field path "spec.template..spec", column 15: empty segment (two dots, or a leading dot)
}
