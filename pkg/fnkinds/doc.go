// Package fnkinds names the four patchwork functions and the config types
// each accepts: the one place those are written. Each function's package
// takes its own name and kinds from here, and hands the runner the whole
// table (TakenBy), so that a config sent to the wrong function says which
// one takes it ("a MultiPatch is multi-patch's config: run multi-patch
// with it") while the runner, pkg/fnrun, names no function.
//
// It holds data only, so that a binary that links one function does not
// link the others.
package fnkinds
