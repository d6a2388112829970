package locate_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

func ExampleDocument_Resolve() {
	t, _ := span.ParseYAML("ports:\n- name: http\n  port: 80\nconfig: '{\"a\": 1}'\n")
	d := &locate.Document{Tree: t, Where: fieldpath.MustParse("data.values")}
	places, _ := d.Resolve(fieldpath.MustParse("ports.[name=http].port"), false, false)
	fmt.Println(d.Text[places[0].N.Start:places[0].N.End], places[0].Addr)
	places, _ = d.Resolve(fieldpath.MustParse("config.a"), false, false)
	fmt.Println(places[0].Kind == locate.InString, places[0].At)
	_, err := d.Resolve(fieldpath.MustParse("prots"), false, false)
	fmt.Println(err)
	// Output:
	// 80 [0 0 1]
	// true 1
	// no key "prots" in the YAML map at line 1, column 1 of data.values (keys: "ports", "config")
}
