package fnrun_test

import (
	"runtime/debug"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestTuneGC(t *testing.T) {
	before := gcPercent()
	t.Setenv("GOGC", "")
	restore := fnrun.TuneGC()
	if got := gcPercent(); got != fnrun.GCPercent {
		t.Errorf("with GOGC unset the target is %d, want %d", got, fnrun.GCPercent)
	}
	restore()
	if got := gcPercent(); got != before {
		t.Errorf("restored target %d, want %d", got, before)
	}

	t.Setenv("GOGC", "75")
	debug.SetGCPercent(75) // what the runtime read from GOGC at start
	defer debug.SetGCPercent(before)
	defer fnrun.TuneGC()()
	if got := gcPercent(); got != 75 {
		t.Errorf("with GOGC=75 the target is %d: the user's choice was overridden", got)
	}
}
