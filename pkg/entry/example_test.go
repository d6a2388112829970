package entry_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// A finding about a patch itself is a warning, the patch applied all the
// same; under strict: true it is an error, and the run fails.
func ExampleRun_Flag() {
	items, _ := kio.FromBytes([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n"))
	for _, strict := range []bool{false, true} {
		req := &fnrun.Request{Items: items}
		r := entry.Run{Req: req, Ix: selector.NewIndex(items, nil), Strict: strict, Noun: "resource"}
		r.Flag("patches[0]", items[0], "spec.replica", `unknown field "replica" (did you mean replicas?)`, "merged as written")
		for _, res := range append(req.Results, r.Errs...) {
			fmt.Printf("%s: %s\n", res.Severity, res.Message)
		}
		fmt.Println("fails:", r.Err() != nil)
	}
	// Output:
	// warning: patches[0]: apps/v1 Deployment api: spec.replica: unknown field "replica" (did you mean replicas?); merged as written
	// fails: false
	// error: patches[0]: apps/v1 Deployment api: spec.replica: unknown field "replica" (did you mean replicas?) (strict: true makes this an error)
	// fails: true
}
