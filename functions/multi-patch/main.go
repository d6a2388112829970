// Command multi-patch applies strategic merge, JSON, merge and apply patches to
// every resource a selector matches. It is a KRM function; README.md beside
// this file is its reference, which --help prints.
package main

import (
	_ "embed"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
)

//go:embed README.md
var doc string

func main() {
	f := multipatch.Function
	f.Doc = doc
	fnrun.Main(f)
}
