package write_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/write"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

func ExampleWrite() {
	text := "# config\nname: web   # the app\nports: [80]\n"
	t, _ := span.ParseYAML(text)
	d := &locate.Document{Tree: t}
	set := func(tag, v string) func(*yaml.Node) (*yaml.Node, error) {
		return func(*yaml.Node) (*yaml.Node, error) {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}, nil
		}
	}
	p, _ := plan.Make(d, []plan.Change{
		{Path: fieldpath.MustParse("name"), Set: set("!!str", "api")},
		{Path: fieldpath.MustParse("ports.1"), Set: set("!!int", "443"), Create: true},
	}, false)
	edits, _, _ := write.Write(d, p, nil, write.Options{})
	out, _ := write.Apply(text, edits)
	fmt.Print(out)
	// Output:
	// # config
	// name: api   # the app
	// ports: [80, 443]
}
