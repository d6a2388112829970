package fnrun

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// The collector is paused while a list is read, then set back; a target
// the user chose with GOGC is left alone.
func TestPauseGC(t *testing.T) {
	before := gcPercent()
	t.Setenv("GOGC", "")
	resume := pauseGC()
	if got := gcPercent(); got != -1 {
		t.Errorf("while reading the target is %d, want -1 (off)", got)
	}
	resume()
	if got := gcPercent(); got != before {
		t.Errorf("after reading the target is %d, want %d", got, before)
	}
	t.Setenv("GOGC", "75")
	defer pauseGC()()
	if got := gcPercent(); got != before {
		t.Errorf("with GOGC set the target is %d while reading: the user's choice was overridden", got)
	}
}
