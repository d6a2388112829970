package multipatch

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// scalingItems are the sizes BenchmarkMultiPatchScaling runs at, in items
// (a third of them Deployments, each with a Service and a ConfigMap).
var scalingItems = []int{2000, 20000, 50000}

// BenchmarkMultiPatchScaling runs the 20 label-selected patches of
// benchList over 2,000, 20,000 and 50,000 items, reporting CPU time per
// item (cpu-ns/item) beside the identity pass: the cost must grow linearly
// (issue 29: CPU per item at 20k at most 1.3 times that at 2k).
func BenchmarkMultiPatchScaling(b *testing.B) {
	for _, items := range scalingItems {
		b.Run(fmt.Sprintf("items=%d", items), func(b *testing.B) {
			fnruntest.BesideIdentityPer(b, Function, benchList(items/3), items, "item")
		})
	}
}

// TestLinearCost: no step per patched item may copy or scan every item
// (issue 29: applier.schema() copied the item list for each one). Memory
// allocated per item is the deterministic measure of that: at ten times
// the items, it must stay within 1.3 times.
func TestLinearCost(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates two lists of thousands of items")
	}
	small, large := allocatedPerItem(t, 300), allocatedPerItem(t, 3000)
	t.Logf("%.0f bytes allocated per Deployment at 300, %.0f at 3,000", small, large)
	if large > 1.3*small {
		t.Fatalf("%.0f bytes allocated per Deployment at 3,000, %.0f at 300: the cost grows faster than the items", large, small)
	}
}

// allocatedPerItem is the memory a run over n Deployments allocates, per
// Deployment.
func allocatedPerItem(t *testing.T, n int) float64 {
	in := benchList(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, o, err := fnrun.RunBytes(Function, in); err != nil || o.Failed {
		t.Fatal(err, o.Results)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}
