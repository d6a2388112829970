package fnrun

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/patchwork-krm/patchwork/internal/kptpipeline"
)

// CheckPipelineFlag makes a binary check a kpt package before a renderer
// runs it (docs/integrations.md's Argo CD plugin and Flux workflow):
// `multi-patch --check-pipeline DIR` exits 0 when the pipelines of DIR's
// Kptfiles, nested packages too, run only patchwork's functions by name,
// and 1, naming each entry, when one would run anything else (a script of
// the package, an image).
const CheckPipelineFlag = "--check-pipeline"

// checkPipeline runs the flag on its arguments, one directory.
func (f Function) checkPipeline(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "%s: %s takes one directory, the kpt package\n\n%s", f.Name, CheckPipelineFlag, f.usage())
		return 2
	}
	problems, err := kptpipeline.Untrusted(args[0], f.functions())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %v\n", f.Name, CheckPipelineFlag, err)
		return 2
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "error: %s: %s\n", args[0], p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "%s: the package's pipelines run what is not patchwork's: refused, nothing rendered\n", f.Name)
		return 1
	}
	fmt.Fprintf(stdout, "%s: the pipelines run only patchwork's functions\n", args[0])
	return 0
}

// functions are the names of patchwork's functions: those that take the
// config types TakenBy knows, and this one.
func (f Function) functions() []string {
	names := slices.Collect(maps.Values(f.TakenBy))
	names = append(names, f.Name)
	slices.Sort(names)
	return slices.Compact(names)
}
