package entry

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

func messages(rs framework.Results) []string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s: %s", r.Severity, r.Message))
	}
	return out
}

func TestResultsAndSplit(t *testing.T) {
	joined := errors.Join(errors.New("a"), errors.New("b"))
	if got := messages(Results(joined)); strings.Join(got, "|") != "error: a|error: b" {
		t.Errorf("Results of a joined error: %q", got)
	}
	if got := messages(Results(errors.New("one"))); strings.Join(got, "|") != "error: one" {
		t.Errorf("Results of one error: %q", got)
	}
	if rs, ok := Split(joined).(framework.Results); !ok || len(rs) != 2 {
		t.Errorf("Split of a joined error: %v", Split(joined))
	}
	one := errors.New("one")
	if Split(one) != one {
		t.Error("Split changed a single error")
	}
}

func items(t *testing.T, n int) ([]*yaml.RNode, *selector.Index) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d%d, namespace: prod}\n", i)
	}
	its, err := kio.FromBytes([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return its, selector.NewIndex(its, nil)
}

func TestNames(t *testing.T) {
	_, ix := items(t, 7)
	if got, want := Names(ix, []int{0, 1}), "apps/v1 Deployment prod/d0, apps/v1 Deployment prod/d1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	got := Names(ix, []int{0, 1, 2, 3, 4, 5, 6})
	if !strings.HasSuffix(got, "apps/v1 Deployment prod/d4, and 2 more") || strings.Contains(got, "d5") {
		t.Errorf("seven: got %q", got)
	}
}

func TestRequire(t *testing.T) {
	config := yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: x}\n")
	if err := Require(config, "patches", 0); err == nil || err.Error() != "MultiPatch x: no patches" {
		t.Errorf("got %v", err)
	}
	if err := Require(config, "patches", 1); err != nil {
		t.Errorf("got %v", err)
	}
}

// A config embedding Header decodes its fields, and unknown fields are
// still errors.
func TestHeaderDecodes(t *testing.T) {
	var c struct {
		Header
		Patches []string `json:"patches"`
	}
	config := yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: x}\nstrict: true\nmergeKeys: [{path: spec.x, keys: [name]}]\npatches: [a]\n")
	if err := fnconfig.Decode(config, &c); err != nil {
		t.Fatal(err)
	}
	if !c.Strict || c.Kind != "MultiPatch" || len(c.MergeKeys) != 1 || len(c.Patches) != 1 {
		t.Errorf("decoded %+v", c)
	}
	config = yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata: {name: x}\nstrikt: true\n")
	if err := fnconfig.Decode(config, &c); err == nil || !strings.Contains(err.Error(), "strict") {
		t.Errorf("a misspelt field: got %v", err)
	}
}

func TestCountsLine(t *testing.T) {
	for _, c := range []struct {
		n    Counts
		fill bool
		want string
	}{
		{Counts{Selected: 5, Changed: 2}, false, "2 resources changed (5 selected)"},
		{Counts{Selected: 5, Changed: 1, Deleted: 3}, false, "1 resource changed, 3 deleted (5 selected)"},
		{Counts{Selected: 3, Changed: 2, Filled: 4}, true, "2 resources changed (3 selected): defaults filled 4 fields; 1 resource left as it was"},
		{Counts{Selected: 3, Filled: 0}, true, "0 resources changed (3 selected): defaults filled 0 fields; 3 resources left as they were"},
	} {
		if got := c.n.Line("resource", c.fill); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// Element findings, in the words of multi-patch and of podspec-patch.
func TestElements(t *testing.T) {
	its, ix := items(t, 3)
	var tally smp.Tally
	const ctr = "spec.template.spec.containers[name=server]"
	tally.Add(0, []smp.Element{{Path: ctr, Created: true, Container: true, Name: "server"}})
	tally.Add(1, []smp.Element{{Path: ctr, Container: true, Image: true, Name: "server"}})
	const port = "ports[containerPort=80]"
	tally.Add(1, []smp.Element{{Path: port, Created: true}})
	tally.Add(2, []smp.Element{{Path: port}})

	req := &fnrun.Request{Items: its}
	r := Run{Req: req, Ix: ix, Noun: "resource"}
	r.Elements("patches[0]", &tally, Words{Patch: "the patch", Narrow: "; to change only those, narrow the target"})
	got := strings.Join(messages(req.Results), "\n")
	for _, want := range []string{
		"warning: patches[0]: apps/v1 Deployment prod/d0: " + ctr + ": the patch adds this container, which the resource did not have, without an image: the API server will reject it (in 1 other resource the patch merged into the container of that name; to change only those, narrow the target)",
		"warning: patches[0]: " + port + ": added as a new list element to 1 resource (apps/v1 Deployment prod/d1) while merged into the existing one in 1; a strategic merge adds an element wherever none has its keys: if the patch is meant for the resources that have it, narrow the target",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}

	req = &fnrun.Request{Items: its}
	r = Run{Req: req, Ix: ix, Noun: "workload", Strict: true}
	r.Elements("patchesPodSpec[0]", &tally, Words{Patch: "the PodSpec patch", Within: "the PodSpec",
		At:   func(int) string { return "spec.template.spec" },
		Hint: func(name string) string { return "; use containerPatch for " + name }})
	got = strings.Join(messages(r.Errs), "\n")
	for _, want := range []string{
		"error: patchesPodSpec[0]: apps/v1 Deployment prod/d0: spec.template.spec." + ctr + ": the PodSpec patch adds this container, which the workload did not have, without an image: the API server will reject it (in 1 other workload the patch merged into the container of that name); use containerPatch for server (strict: true makes this an error)",
		"error: patchesPodSpec[0]: the PodSpec's " + port + ": added as a new list element to 1 workload",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if len(req.Results) != 0 {
		t.Errorf("strict left warnings: %v", messages(req.Results))
	}
}

// A default's element that none of the resources had did nothing: a
// finding naming it, and for a container the way to reach every one.
func TestElementsNoneHad(t *testing.T) {
	its, ix := items(t, 2)
	var tally smp.Tally
	const ctr = "spec.template.spec.containers[name=app]"
	tally.Add(0, []smp.Element{{Path: ctr, Unfilled: true, Container: true, Name: "app"}})
	tally.Add(1, []smp.Element{{Path: ctr, Unfilled: true, Container: true, Name: "app"}})
	req := &fnrun.Request{Items: its}
	r := Run{Req: req, Ix: ix, Noun: "resource"}
	r.Elements("patches[0]", &tally, Words{Patch: "the patch", Every: "podspec-patch's containerPatch with mode: default"})
	want := "warning: patches[0]: " + ctr + ": no such element in the 2 resources the default went into (apps/v1 Deployment prod/d0, apps/v1 Deployment prod/d1): a default fills the elements there and adds none, so this one did nothing; to fill a default into every container, whatever its name, use podspec-patch's containerPatch with mode: default (to add the element, use a patch without mode)"
	if got := strings.Join(messages(req.Results), "\n"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
