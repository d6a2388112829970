package embedpatch_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedpatch"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// A merge patch into the JSON a ConfigMap holds: only the new key is
// written, laid out as the document lays out its own.
func ExamplePatch_Apply() {
	p, err := embedpatch.Parse(embedpatch.Merge, `{"server": {"tls": true}}`, false)
	if err != nil {
		panic(err)
	}
	out, err := p.Apply("{\n  \"server\": {\"port\": 8443},\n  \"log\": \"info\"\n}\n",
		embedpatch.Options{Where: fieldpath.MustParse(`data.config\.json`)})
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// {
	//   "server": {"port": 8443, "tls": true},
	//   "log": "info"
	// }
}
