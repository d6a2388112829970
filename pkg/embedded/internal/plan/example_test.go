package plan_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

func ExampleMake() {
	t, _ := span.ParseJSON(`{"a": 1, "b": {"c": "x"}, "s": "{\"k\": 2}"}`)
	d := &locate.Document{Tree: t}
	two := func(*yaml.Node) (*yaml.Node, error) { return &yaml.Node{Kind: yaml.ScalarNode, Value: "2"}, nil }
	p, err := plan.Make(d, []plan.Change{
		{Path: fieldpath.MustParse("a"), Set: two},
		{Path: fieldpath.MustParse("b.d"), Set: two, Create: true},
		{Path: fieldpath.MustParse("b.c"), Delete: true},
		{Path: fieldpath.MustParse("s.k"), Set: two},
	}, false)
	fmt.Println(len(p.Replaces), len(p.Groups), len(p.Groups[0].Appends), len(p.Groups[0].Gone), p.Nested[0].Changes[0].Path, err)
	_, err = plan.Make(d, []plan.Change{{Path: fieldpath.MustParse("b"), Delete: true}, {Path: fieldpath.MustParse("b.c"), Set: two}}, false)
	fmt.Println(err)
	// Output:
	// 1 1 1 1 k <nil>
	// the changes at b and b.c overlap: apply them one after the other
}
