package fnrun

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// pauseGC stops the collector for a run, unless the user chose a target
// with GOGC; read is to be called when the list has been read, end when the
// run is over.
//
// Reading allocates next to nothing that is garbage (every node read lives
// until it is written), so each collection while reading would only mark a
// heap still growing. After reading, Go's default target would start a
// collection at once, marking every node read: on 10,000 Deployments about
// a tenth of a run's CPU, for what little garbage the transform and writer
// make. So the collector stays off after reading too, with a memory limit
// at twice what the process then holds (Go's default target is twice the
// live heap): a run that stays below it, as patches over a list do, is
// never collected; one that makes garbage as it goes is collected when it
// reaches it, and from that collection on (a cleanup tells) runs with Go's
// default target again, so that a heap that keeps growing is not collected
// over and over at the limit. A memory limit the user set with GOMEMLIMIT
// stays the lower bound.
func pauseGC() (read, end func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}, func() {}
	}
	collector.hold()
	return collector.afterRead, collector.release
}

// collector is the state pauseGC keeps: runs may overlap (tests), and only
// the first to start records the settings the last to end puts back.
var collector gcState

type gcState struct {
	sync.Mutex
	holds   int
	percent int   // the collector's target before the first hold
	limit   int64 // the memory limit before the first hold
	resumed bool  // a collection ran since the first hold: default target again
	// epoch counts the times holds began, so that the cleanup of an
	// earlier run's sentinel, which the first collection after it runs,
	// does not end a later run's pause
	epoch int
}

// hold turns the collector off, remembering its settings.
func (s *gcState) hold() {
	s.Lock()
	defer s.Unlock()
	if s.holds == 0 {
		s.percent = debug.SetGCPercent(-1)
		s.limit = debug.SetMemoryLimit(-1)
		s.resumed = false
		s.epoch++
	}
	s.holds++
}

// afterRead sets the memory limit at twice what the process holds and asks
// to be told of the next collection.
func (s *gcState) afterRead() {
	s.Lock()
	defer s.Unlock()
	if s.holds == 0 || s.resumed {
		return
	}
	limit := 2 * heldMemory()
	if s.limit < limit {
		limit = s.limit
	}
	debug.SetMemoryLimit(limit)
	sentinel := &gcSentinel{}
	runtime.AddCleanup(sentinel, s.resume, s.epoch)
}

// gcSentinel is an allocation nothing refers to, whose cleanup runs after
// the first collection that finds it. It is larger than 16 bytes and holds
// a pointer, so that it is not one of the tiny allocations Go batches
// together (whose cleanups may never run).
type gcSentinel struct {
	_ [4]*byte
}

// resume gives the collector its default target back after a collection,
// if the pause that asked for it is still on.
func (s *gcState) resume(epoch int) {
	s.Lock()
	defer s.Unlock()
	if s.holds == 0 || s.resumed || s.epoch != epoch {
		return
	}
	s.resumed = true
	s.restore()
}

// release ends a hold; the last one puts the settings back.
func (s *gcState) release() {
	s.Lock()
	defer s.Unlock()
	if s.holds == 0 {
		return
	}
	s.holds--
	if s.holds == 0 && !s.resumed {
		s.restore()
	}
}

func (s *gcState) restore() {
	debug.SetGCPercent(s.percent)
	debug.SetMemoryLimit(s.limit)
}

// heldMemory is what the memory limit counts: memory the runtime holds
// from the system and has not given back.
func heldMemory() int64 {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	held := int64(sample[0].Value.Uint64()) - int64(sample[1].Value.Uint64())
	if held <= 0 {
		return math.MaxInt64 / 2
	}
	return held
}
