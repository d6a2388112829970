package fnkinds_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

// functions are the four functions as their packages define them.
var functions = []fnrun.Function{multipatch.Function, podspec.Function, replacement.Function, generator.Function}

// Each function is named and typed from the table, and hands the runner the
// whole table; no config type is taken by two functions.
func TestFunctionsMatchTheTable(t *testing.T) {
	if len(functions) != len(fnkinds.All) {
		t.Fatalf("%d functions, %d in the table", len(functions), len(fnkinds.All))
	}
	seen := map[string]string{}
	for i, f := range functions {
		want := fnkinds.All[i]
		if f.Name != want.Name || !slices.Equal(f.Kinds, want.Kinds) {
			t.Errorf("%s: name %q, kinds %v; the table has %q, %v", f.Name, f.Name, f.Kinds, want.Name, want.Kinds)
		}
		if !maps.Equal(f.TakenBy, fnkinds.TakenBy()) {
			t.Errorf("%s: TakenBy %v, want the table's %v", f.Name, f.TakenBy, fnkinds.TakenBy())
		}
		for _, k := range want.Kinds {
			if other, taken := seen[k]; taken {
				t.Errorf("%s is taken by %s and %s", k, other, want.Name)
			}
			seen[k] = want.Name
		}
	}
}

// A config for another function names the function that takes it (issue
// 20), and runs nothing.
func TestConfigOfAnotherFunction(t *testing.T) {
	for _, c := range []struct {
		f    fnrun.Function
		cfg  string
		want string
	}{
		{podspec.Function, "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: sidecar}\npatches: []\n",
			`podspec-patch: config of type fn.patchwork.dev/v1alpha1/MultiPatch (apiVersion "fn.patchwork.dev/v1alpha1", kind "MultiPatch") is not accepted (a MultiPatch is multi-patch's config: run multi-patch with it); expected one of: fn.patchwork.dev/v1alpha1/PodSpecPatch`},
		{multipatch.Function, "apiVersion: builtin\nkind: ReplacementTransformer\nmetadata: {name: r}\n",
			`(a ReplacementTransformer is structured-replacement's config: run structured-replacement with it)`},
		{replacement.Function, "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata: {name: g}\n",
			`(a MergeValuesGenerator is merge-values-generator's config: run merge-values-generator with it)`},
		{generator.Function, "apiVersion: fn.patchwork.dev/v1alpha1\nkind: PodSpecPatch\nmetadata: {name: p}\n",
			`(a PodSpecPatch is podspec-patch's config: run podspec-patch with it)`},
	} {
		in := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig:\n" + indentConfig(c.cfg)
		_, outcome, err := fnrun.RunBytes(c.f, []byte(in))
		if err != nil || !outcome.Failed || len(outcome.Results) != 1 {
			t.Fatalf("%s: err %v, outcome %+v", c.f.Name, err, outcome)
		}
		if msg := outcome.Results[0].Message; !strings.Contains(msg, c.want) {
			t.Errorf("%s:\n got  %s\n want %s", c.f.Name, msg, c.want)
		}
	}
}

func indentConfig(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("  " + l)
		}
	}
	return b.String()
}
