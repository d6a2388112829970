// Command multi-patch applies strategic merge, JSON and merge patches to
// every resource a selector matches. It is a KRM function: see the README.
package main

import (
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
)

func main() {
	fnrun.Main(multipatch.Function)
}
