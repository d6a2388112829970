// Command structured-replacement is a KRM function: kustomize's
// replacements, with field paths that reach into JSON and YAML documents
// held in strings and edit only the bytes of the values they replace.
//
// It runs under kpt (fn eval, fn render), as a kustomize transformer, or on
// its own: structured-replacement CONFIG [FILE...]. See
// pkg/replacement/REFERENCE.md.
package main

import (
	_ "embed"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

//go:embed README.md
var doc string

func main() {
	f := replacement.Function
	f.Doc = doc
	fnrun.Main(f)
}
