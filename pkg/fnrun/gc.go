package fnrun

import (
	"os"
	"runtime/debug"
)

// GCPercent is the garbage collector's target a function binary runs with
// (Go's default is 100) unless GOGC is set.
//
// A run holds every item's tree until it is written, so the live heap only
// grows while reading, and each collection marks all of it again for
// little garbage found: at 50, the target of earlier releases, the
// collector was a fifth of a run's CPU on 30,000 generated items. At 200
// it collects about a third as often: measured in one session
// (docs/performance.md), 20 label-selected patches over 10,000
// Deployments took 1.72 s of CPU instead of 2.06–2.15 with a peak of 500
// MB instead of 415 (kyaml's identity pass: 4.4–5.8 s, 1,560–1,960 MB);
// on the real corpus 0.32–0.35 s instead of 0.42–0.46, 162 MB instead of
// 125 (kyaml's: 370–410 MB).
const GCPercent = 200

// TuneGC sets the collector's target for a function run, unless the user
// chose one with GOGC, and returns what restores the previous one.
func TuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	previous := debug.SetGCPercent(GCPercent)
	return func() { debug.SetGCPercent(previous) }
}

// pauseGC stops the collector until the returned function is called,
// unless the user chose a target with GOGC: for reading the list, when
// next to nothing allocated is garbage (every node read lives until it is
// written) and each collection would only mark a heap still growing. The
// heap is marked once after reading instead; what is kept uncollected is
// the garbage of reading itself (copies of the input, the parser's
// buffers), a few times the input. On 10,000 generated Deployments
// (docs/performance.md) that saves 5% of the run's CPU for 20 MB more at
// the peak; on the real corpus both are within the noise.
func pauseGC() (resume func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	previous := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(previous) }
}
