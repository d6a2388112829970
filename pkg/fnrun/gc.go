package fnrun

import (
	"os"
	"runtime/debug"
)

// GCPercent is the garbage collector's target a function binary runs with
// (Go's default is 100) unless GOGC is set.
//
// A run holds every item's tree to the end, so the live heap only grows,
// and the collector lets the heap reach twice its live part before it
// collects again. At 50 it collects sooner: on the 10,000-Deployment list
// the peak resident memory fell from 630 to 440 MB while the CPU time stayed
// about the same (the collector marks more often, the kernel faults in
// fewer pages). See docs/performance.md.
const GCPercent = 50

// TuneGC sets the collector's target for a function run, unless the user
// chose one with GOGC, and returns what restores the previous one.
func TuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	previous := debug.SetGCPercent(GCPercent)
	return func() { debug.SetGCPercent(previous) }
}
