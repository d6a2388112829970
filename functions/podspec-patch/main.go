// Command podspec-patch applies one PodSpec patch to every matching
// workload. It is a KRM function: see the README.
package main

import (
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
)

func main() {
	fnrun.Main(podspec.Function)
}
