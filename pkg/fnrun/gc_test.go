package fnrun

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// memoryLimit reads the memory limit without changing it.
func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

// The collector is off while a list is read and after, below a memory
// limit of twice what the process holds after reading; the end of the run
// puts both settings back. A target the user chose with GOGC is left alone.
func TestPauseGC(t *testing.T) {
	before, beforeLimit := gcPercent(), memoryLimit()
	t.Setenv("GOGC", "")
	read, end := pauseGC()
	if got := gcPercent(); got != -1 {
		t.Errorf("while reading the target is %d, want -1 (off)", got)
	}
	if got := memoryLimit(); got != beforeLimit {
		t.Errorf("while reading the memory limit is %d, want %d (unchanged)", got, beforeLimit)
	}
	read()
	if got, held := gcPercent(), heldMemory(); got != -1 || memoryLimit() > 2*held+2*held/10 || memoryLimit() < held {
		t.Errorf("after reading the target is %d and the limit %d with %d held, want -1 and twice what is held", got, memoryLimit(), held)
	}
	end()
	if got := gcPercent(); got != before || memoryLimit() != beforeLimit {
		t.Errorf("after the run the target is %d and the limit %d, want %d and %d", got, memoryLimit(), before, beforeLimit)
	}
	t.Setenv("GOGC", "75")
	read, end = pauseGC()
	read()
	defer end()
	if got := gcPercent(); got != before || memoryLimit() != beforeLimit {
		t.Errorf("with GOGC set the target is %d and the limit %d: the user's choice was overridden", got, memoryLimit())
	}
}

// A memory limit the user set (GOMEMLIMIT) is kept where it is lower than
// the run's.
func TestPauseGCKeepsLowerLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 20))
	read, end := pauseGC()
	read()
	if got := memoryLimit(); got != 1<<20 {
		t.Errorf("the limit is %d, want the user's %d", got, 1<<20)
	}
	end()
	if got := memoryLimit(); got != 1<<20 {
		t.Errorf("after the run the limit is %d, want the user's %d", got, 1<<20)
	}
}

// Once a collection ran after reading (the run reached the limit), the
// collector is back to its target while the run goes on, so that a heap
// that keeps growing is not collected over and over at the limit.
func TestPauseGCResumesAfterACollection(t *testing.T) {
	t.Setenv("GOGC", "")
	before := gcPercent()
	read, end := pauseGC()
	defer end()
	read()
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for gcPercent() == -1 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := gcPercent(); got != before || memoryLimit() != math.MaxInt64 {
		t.Errorf("after a collection the target is %d and the limit %d, want %d and none", got, memoryLimit(), before)
	}
}

// Runs may overlap (in tests): the settings are put back when the last
// ends, whatever the order.
func TestPauseGCOverlapping(t *testing.T) {
	t.Setenv("GOGC", "")
	before := gcPercent()
	readA, endA := pauseGC()
	readB, endB := pauseGC()
	readA()
	endA()
	if got := gcPercent(); got != -1 {
		t.Errorf("with one run still going the target is %d, want -1", got)
	}
	readB()
	endB()
	if got := gcPercent(); got != before {
		t.Errorf("after both the target is %d, want %d", got, before)
	}
}

// The collection that follows a run (its garbage) does not end the next
// run's pause: the cleanup an earlier run asked for is that run's only.
func TestPauseGCNotEndedByEarlierRun(t *testing.T) {
	t.Setenv("GOGC", "")
	read, end := pauseGC()
	read()
	end()
	read, end = pauseGC()
	defer end()
	for i := 0; i < 5; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := gcPercent(); got != -1 {
		t.Errorf("while the second run reads the target is %d, want -1: the first run's cleanup ended its pause", got)
	}
	read()
}
