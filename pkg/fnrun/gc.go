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
// a third more memory. Keeping it off after reading too, below a memory
// limit of twice what the process then held, saved 10-15% of the CPU and
// kept the garbage of reading and of the transform to the end: 12-23% more
// peak RSS, which took podspec-patch on the real corpus past half kyaml's
// (docs/performance.md).
func pauseGC() (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	previous := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(previous) }
}
