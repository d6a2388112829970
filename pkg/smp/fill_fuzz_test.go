package smp

import (
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// FuzzDefault: a default (Options.Default) on generated documents, patches
// and schemas reports the same errors as ValidateWith, never modifies the
// patch, is idempotent, and never changes what the document has: every
// value there before (a scalar other than null, and the length of every
// list) is there after, at the same place.
func FuzzDefault(f *testing.F) {
	f.Add("a: 1\nb: [x, y]\nm: {k: v}", "a: 2\nb: [z]\nc: {d: 1}\nm: {k: w, n: 1}", []byte{1, 2, 3})
	f.Add("list: [{name: a, v: 1}, {name: b}]", "list: [{name: b, v: 2, w: 3}, {name: c}]", []byte{1, 1, 1, 1})
	f.Add("spec: {x: null}", "spec: {x: {y: 1}, z: [1]}", []byte{2, 2})
	f.Add("", "", []byte("generated documents from these bytes"))
	old := ownBudget
	ownBudget = func() *budget.Budget { return budget.Limits(1<<12, 1<<24) } // keep alias bombs quick
	f.Cleanup(func() { ownBudget = old })
	f.Fuzz(func(t *testing.T, docText, patchText string, shape []byte) {
		r := &byteReader{b: shape}
		dst := parseOrGenerate(docText, r, false)
		patch := parseOrGenerate(patchText, r, true)
		if dst == nil || patch == nil {
			return
		}
		ty := genType(r, []*yaml.Node{dst.YNode(), patch.YNode()}, 0)
		checkDefault(t, dst, patch, ty)
	})
}

func checkDefault(t *testing.T, dst, patch *yaml.RNode, ty *schema.Type) {
	o := Options{Default: true}
	patchBefore, dstBefore := mustString(t, patch), mustString(t, dst)
	before := map[string]string{}
	if !inherit.Contains(dst.Document()) {
		// (a document with merge keys is written expanded when a default
		// fills something: the same values, at other places)
		facts(dst.YNode(), "", before, 0)
	}
	_, err := MergeWith(dst, patch, ty, o)
	verr := ValidateWith(patch, ty, o)
	if got := mustString(t, patch); got != patchBefore {
		t.Fatalf("patch modified:\n%s\nwas:\n%s", got, patchBefore)
	}
	if err != nil {
		if verr == nil || verr.Error() != err.Error() {
			if !strings.Contains(err.Error(), "YAML aliases expand") && !strings.Contains(err.Error(), "deletes the whole resource") {
				t.Fatalf("Merge: %v\nValidate: %v\ndoc:\n%s\npatch:\n%s", err, verr, dstBefore, patchBefore)
			}
		}
		return
	}
	if verr != nil {
		t.Fatalf("Merge succeeded, Validate: %v", verr)
	}
	after := map[string]string{}
	facts(dst.YNode(), "", after, 0)
	for place, v := range before {
		if after[place] != v {
			t.Fatalf("a default changed what was there: %s was %q, is %q\ndoc:\n%s\npatch:\n%s\nout:\n%s",
				place, v, after[place], dstBefore, patchBefore, mustString(t, dst))
		}
	}
	out := mustString(t, dst)
	if _, err := MergeWith(dst, patch, ty, o); err != nil {
		t.Fatalf("second merge: %v", err)
	}
	if again := mustString(t, dst); again != out {
		t.Fatalf("not idempotent\nonce:\n%s\ntwice:\n%s", out, again)
	}
}

// facts lists what a document has: its scalars other than null, and the
// length of its lists, by place. Aliases are followed a little way.
func facts(n *yaml.Node, at string, out map[string]string, depth int) {
	n = yamltree.Resolve(n)
	if n == nil || depth > 50 {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			facts(c, at, out, depth+1)
		}
	case yaml.ScalarNode:
		if !yamltree.IsNull(n) {
			out[at] = tagOf(n) + " " + n.Value
		}
	case yaml.SequenceNode:
		out[at+"#len"] = strconv.Itoa(len(n.Content))
		for i, c := range n.Content {
			facts(c, at+"["+strconv.Itoa(i)+"]", out, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			facts(n.Content[i+1], at+"."+yamltree.Resolve(n.Content[i]).Value, out, depth+1)
		}
	}
}
