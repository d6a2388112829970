package fnrun_test

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

// functions are the four functions, whose Kinds the table must match.
var functions = []fnrun.Function{multipatch.Function, podspec.Function, replacement.Function, generator.Function}

// The table naming the function that takes each config type is exactly
// the functions' own Kinds.
func TestTakenByMatchesKinds(t *testing.T) {
	want := map[string]string{}
	for _, f := range functions {
		for _, k := range f.Kinds {
			want[k] = f.Name
		}
	}
	for k, name := range want {
		if fnrun.TakenBy[k] != name {
			t.Errorf("TakenBy[%q] = %q, want %q", k, fnrun.TakenBy[k], name)
		}
	}
	for k := range fnrun.TakenBy {
		if want[k] == "" {
			t.Errorf("TakenBy has %q, which no function accepts", k)
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
