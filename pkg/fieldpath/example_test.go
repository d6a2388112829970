package fieldpath_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
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

// A walk along a target path: the places it leads to, each named by the
// way there, and the dead ends, each with the segment that selects nothing
// and why, for a message.
func ExampleWalk() {
	deploy := yaml.MustParse(`
spec:
  template:
    spec:
      containers:
      - name: app
        env: [{name: HOST, value: a}]
      - name: app-debug
        env: [{name: HOST, value: b}]
      - name: app-init
`).YNode()
	path := fieldpath.MustParse("spec.template.spec.containers.[name=app.*].env.[name=HOST].value")
	ends, _ := fieldpath.Walk(yamltree.Tree{}, deploy, path)
	for _, e := range ends {
		way := fieldpath.Taken(yamltree.Tree{}, e.Steps)
		if e.Dead {
			fmt.Printf("%s: no %s (missing: %v)\n", way, path[e.At], e.Sel.Missing)
			continue
		}
		fmt.Printf("%s = %s\n", way, e.Node.Value)
	}
	// Output:
	// spec.template.spec.containers.0.env.0.value = a
	// spec.template.spec.containers.1.env.0.value = b
	// spec.template.spec.containers.2: no env (missing: true)
}
