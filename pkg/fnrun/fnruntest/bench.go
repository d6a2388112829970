package fnruntest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// BesideIdentity benchmarks f on a ResourceList next to the identity pass,
// as three sub-benchmarks:
//
//	identity-kyaml  the list read and written through kyaml's
//	                kio.ByteReadWriter, nothing changed: the yardstick
//	identity        the same through the runner's own reader and writer
//	<f.Name>        the function, through the runner
//
// The last two run with the garbage collector set as our binaries set it
// (fnrun.TuneGC); the kyaml pass with Go's default, as kyaml-based
// functions run.
//
// The ratios between them are the figures that hold on a noisy machine. CPU
// time is reported beside wall time (cpu-ns/op), since on a shared machine
// wall time measures the neighbours as much as the code; and the peak
// resident memory of one run (peak-RSS-MB), measured in a child process that
// runs only that sub-benchmark once.
//
// With PATCHWORK_BENCH_INPUTS=dir set, the input is also saved in dir, named
// after the benchmark, for measuring the binaries by hand (see the README's
// performance section).
func BesideIdentity(b *testing.B, f fnrun.Function, in []byte) {
	if dir := os.Getenv("PATCHWORK_BENCH_INPUTS"); dir != "" {
		name := strings.NewReplacer("/", "_", "=", "-").Replace(b.Name()) + ".yaml"
		if err := os.WriteFile(filepath.Join(dir, name), in, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	identity := fnrun.Identity
	identity.Kinds = f.Kinds // accept f's config, change nothing
	runs := []struct {
		name string
		fn   fnrun.Function
		run  func(fnrun.Function, []byte) ([]byte, fnrun.Outcome, error)
		// asBinary: run with the collector set as our binaries set it
		// (fnrun.TuneGC); the kyaml pass runs as kyaml-based functions do
		asBinary bool
	}{
		{"identity-kyaml", identity, fnrun.RunBytesKyaml, false},
		{"identity", identity, fnrun.RunBytes, true},
		{f.Name, f, fnrun.RunBytes, true},
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			if r.asBinary {
				defer fnrun.TuneGC()()
			}
			if os.Getenv(childEnv) != "" {
				// in the child: one run, then its peak for the parent
				resetPeak()
				if _, o, err := r.run(r.fn, in); err != nil || o.Failed {
					b.Fatal(err, o.Results)
				}
				fmt.Printf("\n%s %d\n", peakMarker, vmHWM())
				return
			}
			b.SetBytes(int64(len(in)))
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, o, err := r.run(r.fn, in); err != nil || o.Failed {
					b.Fatal(err, o.Results)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			if mb := peakRSS(b); mb > 0 {
				b.ReportMetric(mb, "peak-RSS-MB")
			}
		})
	}
}

// childEnv marks the child process peakRSS starts.
const childEnv = "PATCHWORK_PEAK_RSS_CHILD"

// peakMarker starts the line the child reports its peak on.
const peakMarker = "patchwork-peak-rss-kB:"

// peakRSS runs the current benchmark alone, once, in a fresh test process
// and returns the peak resident memory of that run in MB (0 in the child
// itself, or when it cannot be measured).
//
// The child reads its own peak (VmHWM, reset just before the run, so the
// input it built is counted but not the garbage of building it): the
// getrusage figure of a child started from a large process carries the
// parent's peak across exec.
func peakRSS(b *testing.B) float64 {
	if os.Getenv(childEnv) != "" {
		return 0
	}
	var pattern []string
	for _, part := range strings.Split(b.Name(), "/") {
		part = suffix.ReplaceAllString(part, "")
		pattern = append(pattern, "^"+regexp.QuoteMeta(part)+"$")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench="+strings.Join(pattern, "/"), "-test.benchtime=1x")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Logf("peak RSS not measured: %v\n%s", err, out)
		return 0
	}
	for _, line := range strings.Split(string(out), "\n") {
		var kB int64
		if _, err := fmt.Sscanf(line, peakMarker+" %d", &kB); err == nil && kB > 0 {
			return float64(kB) * 1024 / 1e6
		}
	}
	b.Logf("peak RSS not measured: no %q in\n%s", peakMarker, out)
	return 0
}

// resetPeak returns what memory it can to the system and resets the
// process's peak resident set size (Linux: clear_refs 5).
func resetPeak() {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// vmHWM is the process's peak resident set size in kB since resetPeak (0
// where /proc does not tell).
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kB int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kB)
			return kB
		}
	}
	return 0
}

// suffix is what go test appends to repeated benchmark names.
var suffix = regexp.MustCompile(`#[0-9]+$`)

// cpuTime is the CPU time (user and system, all threads, GC included) the
// process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
