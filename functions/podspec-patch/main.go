// Command podspec-patch applies one PodSpec patch to every matching
// workload. It is a KRM function; README.md beside
// this file is its reference, which --help prints.
package main

import (
	_ "embed"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
)

//go:embed README.md
var doc string

func main() {
	f := podspec.Function
	f.Doc = doc
	fnrun.Main(f)
}
