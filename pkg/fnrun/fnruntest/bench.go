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
// The yardstick runs with Go's collector untouched, as kyaml-based
// functions do; the last two as the binaries do, with the collector paused
// while the list is read (fnrun's pauseGC).
//
// The ratios between them are the figures that hold on a noisy machine. CPU
// time (of the run alone, from a fresh heap: see bench) is reported beside
// wall time (cpu-ns/op), since on a shared machine
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
	for _, p := range []benchPass{
		{"identity-kyaml", identity, fnrun.RunBytesKyaml},
		{"identity", identity, fnrun.RunBytes},
		{f.Name, f, fnrun.RunBytes},
	} {
		b.Run(p.name, func(b *testing.B) { p.bench(b, in) })
	}
}

// Alone benchmarks f on a ResourceList as BesideIdentity's last pass does,
// without the identity passes: for comparing configs of one function (what
// an option costs) within one run.
func Alone(b *testing.B, f fnrun.Function, in []byte) {
	benchPass{f.Name, f, fnrun.RunBytes}.bench(b, in)
}

// CorpusChecks benchmarks f on the corpus (CorpusList, 20 copies) with
// config three ways, each Alone, in one run: validate: off (nothing
// watched), the default (validate: warn) and explain: true, the fields
// written before config's line entries (its list of entries, such as
// "patches:\n"). What issue 31's checks cost; its target: explain at most
// 10% more CPU.
func CorpusChecks(b *testing.B, f fnrun.Function, config, entries string) {
	for _, c := range []struct{ name, fields string }{
		{"validate-off", "validate: off\n"}, {"validate-warn", ""}, {"explain", "explain: true\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			Alone(b, f, CorpusList(b, 20, strings.Replace(config, entries, c.fields+entries, 1)))
		})
	}
}

// benchPass is one of BesideIdentity's sub-benchmarks.
type benchPass struct {
	name string
	fn   fnrun.Function
	run  func(fnrun.Function, []byte) ([]byte, fnrun.Outcome, error)
}

// bench runs the pass b.N times on in, reporting CPU time and the peak
// resident memory of one run; in peakRSS's child, it runs once and
// reports that run's peak to the parent. Each run starts from a fresh heap
// (not timed): run after run in one process, a pass would find the pages
// of the run before still mapped and skip the page faults every real run
// pays, which favoured whichever pass uses more memory (kyaml's, the
// yardstick: on 10,000 Deployments 3.3-5.9 s of CPU run after run, 5.5-7.2 s
// from a fresh heap, 5.9-10.5 s as a binary).
func (p benchPass) bench(b *testing.B, in []byte) {
	if os.Getenv(childEnv) != "" {
		resetPeak()
		p.once(b, in)
		fmt.Printf("\n%s %d\n", peakMarker, vmHWM())
		return
	}
	b.SetBytes(int64(len(in)))
	var spent time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		freshHeap()
		b.StartTimer()
		start := cpuTime()
		p.once(b, in)
		spent += cpuTime() - start
	}
	cpu := float64(spent) / float64(b.N)
	b.ReportMetric(cpu, "cpu-ns/op")
	if perUnit != nil {
		b.ReportMetric(cpu/float64(perUnit.n), "cpu-ns/"+perUnit.unit)
	}
	if mb := peakRSS(b); mb > 0 {
		b.ReportMetric(mb, "peak-RSS-MB")
	}
}

// once runs the pass on in, which must succeed.
func (p benchPass) once(b *testing.B, in []byte) {
	if _, o, err := p.run(p.fn, in); err != nil || o.Failed {
		b.Fatal(err, o.Results)
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
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench="+benchPattern(b.Name()), "-test.benchtime=1x")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Logf("peak RSS not measured: %v\n%s", err, out)
		return 0
	}
	kB := reportedPeak(string(out))
	if kB == 0 {
		b.Logf("peak RSS not measured: no %q in\n%s", peakMarker, out)
	}
	return float64(kB) * 1024 / 1e6
}

// benchPattern is the -test.bench pattern that selects the benchmark named
// name alone.
func benchPattern(name string) string {
	var pattern []string
	for _, part := range strings.Split(name, "/") {
		part = suffix.ReplaceAllString(part, "")
		pattern = append(pattern, "^"+regexp.QuoteMeta(part)+"$")
	}
	return strings.Join(pattern, "/")
}

// reportedPeak is the peak in kB the child reported in its output, 0 when
// it reported none.
func reportedPeak(out string) int64 {
	for _, line := range strings.Split(out, "\n") {
		var kB int64
		if _, err := fmt.Sscanf(line, peakMarker+" %d", &kB); err == nil && kB > 0 {
			return kB
		}
	}
	return 0
}

// resetPeak returns what memory it can to the system and resets the
// process's peak resident set size (Linux: clear_refs 5).
func resetPeak() {
	freshHeap()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// freshHeap collects the heap and gives its memory back to the system, so
// that the run that follows starts as a function's process does: every
// page it uses taken from the system, none left mapped by an earlier run.
func freshHeap() {
	runtime.GC()
	debug.FreeOSMemory()
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

// per is the size of the input BesideIdentityPer reports figures per unit of.
type per struct {
	n    int
	unit string
}

var perUnit *per

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

// BesideIdentityPer is BesideIdentity with each figure also reported per
// unit of the input (n of them, named unit: cpu-ns/item), for benchmarks
// that compare sizes.
func BesideIdentityPer(b *testing.B, f fnrun.Function, in []byte, n int, unit string) {
	perUnit = &per{n: n, unit: unit}
	defer func() { perUnit = nil }()
	BesideIdentity(b, f, in)
}
