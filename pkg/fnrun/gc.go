package fnrun

import (
	"os"
	"runtime/debug"
)

// pauseGC stops the collector until the returned function is called,
// unless the user chose a target with GOGC: for reading the list, when
// next to nothing allocated is garbage (every node read lives until it is
// written) and each collection would only mark a heap still growing. The
// heap is marked once after reading instead; what is kept uncollected
// meanwhile is the garbage of reading itself (copies of the input, the
// parser's buffers), a few times the input. Otherwise the binaries run
// with Go's default collector: with reading paused, a higher target saved
// no CPU measurably on generated and real lists and cost functions that
// make garbage as they go (structured-replacement, merge-values-generator)
// a third more memory (docs/performance.md).
func pauseGC() (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	previous := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(previous) }
}
