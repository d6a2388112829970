// Command merge-values-generator is kustomize's configMapGenerator and
// secretGenerator as a KRM function, with mergeValues: values holding JSON
// or YAML are deep-merged into the existing resource's values instead of
// replacing them. It runs under kpt (fn eval, fn render), as a kustomize
// generator or transformer (exec), and standalone:
//
//	merge-values-generator CONFIG [FILE...]
//
// See pkg/generator/REFERENCE.md.
package main

import (
	_ "embed"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator"
)

//go:embed README.md
var doc string

func main() {
	f := generator.Function
	f.Doc = doc
	fnrun.Main(f)
}
