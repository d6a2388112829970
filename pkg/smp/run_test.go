package smp

import (
	"errors"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// mergeCase is one table-driven merge: dst and patch in, want (or an error
// containing err) out. Every case also checks the invariants of the package:
// the patch is unchanged and shares no node with the result, a second merge
// changes nothing, and Validate agrees with Merge.
type mergeCase struct {
	name       string
	t          *schema.Type
	dst, patch string
	want       string
	err        string
	// opts are the merge's options; filled, with opts.Default, how many
	// values the first merge must report filled.
	opts   Options
	filled int
}

func runCases(t *testing.T, cases []mergeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkMerge(t, c)
		})
	}
}

func checkMerge(t *testing.T, c mergeCase) {
	t.Helper()
	dst := parse(t, dedent(c.dst))
	patch := parse(t, dedent(c.patch))
	patchBefore := str(t, patch)

	res, err := MergeWith(dst, patch, c.t, c.opts)
	verr := ValidateWith(patch, c.t, c.opts)
	if got := str(t, patch); got != patchBefore {
		t.Errorf("the patch was modified:\n%s\nwant:\n%s", got, patchBefore)
	}
	if c.err != "" {
		if err == nil {
			t.Fatalf("want error containing %q, got result:\n%s", c.err, str(t, dst))
		}
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("error %T is not a *smp.Error", err)
		}
		if !strings.Contains(err.Error(), c.err) {
			t.Errorf("error %q does not contain %q", err, c.err)
		}
		if verr == nil || verr.Error() != err.Error() {
			t.Errorf("Validate says %v, Merge says %v", verr, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Merge: %v", err)
	}
	if verr != nil {
		t.Errorf("Validate: %v", verr)
	}
	got := str(t, dst)
	if want := dedent(c.want); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if c.opts.Default && res.Filled != c.filled {
		t.Errorf("filled %d values, want %d", res.Filled, c.filled)
	}
	if shared := sharedNodes(dst.YNode(), patch.YNode()); shared > 0 {
		t.Errorf("%d patch nodes were put in the document instead of copies", shared)
	}
	if _, err := MergeWith(dst, patch, c.t, c.opts); err != nil {
		t.Fatalf("second Merge: %v", err)
	}
	if again := str(t, dst); again != got {
		t.Errorf("not idempotent; second merge gives:\n%s", again)
	}
}

// sharedNodes counts nodes present in both trees.
func sharedNodes(a, b *yaml.Node) int {
	seen := map[*yaml.Node]bool{}
	var mark func(n *yaml.Node)
	mark = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		for _, c := range n.Content {
			mark(c)
		}
	}
	mark(b)
	count := 0
	visited := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || visited[n] {
			return
		}
		visited[n] = true
		if seen[n] {
			count++
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(a)
	return count
}
