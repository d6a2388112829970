package fnruntest

import (
	"syscall"
	"testing"
	"time"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// BesideIdentity benchmarks f on a ResourceList next to the identity pass
// (the same list read and written through the runner, nothing changed), as
// the sub-benchmarks "identity" and f.Name: the ratio of the two is the
// figure that holds on a noisy machine. CPU time is reported beside wall
// time (cpu-ns/op), since on a shared machine wall time measures the
// neighbours as much as the code.
func BesideIdentity(b *testing.B, f fnrun.Function, in []byte) {
	identity := fnrun.Identity
	identity.Kinds = f.Kinds // accept f's config, change nothing
	for _, fn := range []fnrun.Function{identity, f} {
		b.Run(fn.Name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, o, err := fnrun.RunBytes(fn, in); err != nil || o.Failed {
					b.Fatal(err, o.Results)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the CPU time (user and system, all threads, GC included) the
// process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
