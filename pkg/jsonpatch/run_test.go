package jsonpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// A copy from "" copies the document as the operations before it left it
// (issue 28, item 15): the library copied it as it was before the patch.
func TestCopyFromWholeDocumentSeesEarlierOperations(t *testing.T) {
	o, err := ParseOps(yaml.MustParse(`[{op: add, path: /b, value: 2}, {op: copy, from: "", path: /c}, {op: add, path: /d, value: 3}, {op: copy, from: "", path: /e}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := "a: 1\nb: 2\nc: {a: 1, b: 2}\nd: 3\ne: {a: 1, b: 2, c: {a: 1, b: 2}, d: 3}\n"
	for _, embedded := range []bool{false, true} {
		doc := yaml.MustParse("a: 1\n")
		if embedded {
			err = o.ApplyEmbedded(doc, false, nil)
		} else {
			err = o.Apply(doc, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		var got, w any
		if err := yaml.Unmarshal([]byte(doc.MustString()), &got); err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal([]byte(want), &w); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("embedded %v: got\n%s\nwant\n%s", embedded, doc.MustString(), want)
		}
	}
}

// Copies that each double what they copy stop at the budget's bytes (issue
// 28, item 10): forty of them would be a terabyte.
func TestDoublingCopiesStopAtTheBudget(t *testing.T) {
	var ops []string
	for range 40 {
		ops = append(ops, "{op: copy, from: /a, path: /a/-}")
	}
	o, err := ParseOps(yaml.MustParse("[" + strings.Join(ops, ", ") + "]"))
	if err != nil {
		t.Fatal(err)
	}
	b := budget.Limits(1<<20, 1<<20)
	doc := yaml.MustParse("a: [1, 2, 3, 4, 5, 6, 7, 8]\n")
	err = o.Apply(doc, b)
	if !errors.Is(err, budget.ErrSpent) || !strings.Contains(err.Error(), "the operations' copies: the run would produce more than 1Mi bytes") {
		t.Fatalf("got %v", err)
	}
	if got := doc.MustString(); got != "a: [1, 2, 3, 4, 5, 6, 7, 8]\n" {
		t.Errorf("the document changed: %.100s", got)
	}
}

// What a patch adds is charged in nodes before the nodes are built: a
// million small values are a few megabytes of JSON but hundreds of
// megabytes of nodes.
func TestGrowthIsChargedInNodes(t *testing.T) {
	o, err := ParseOps(yaml.MustParse(`[{op: add, path: /b, value: [1, 2, 3, 4, 5, 6]}]`))
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Apply(yaml.MustParse("a: 1\n"), budget.Limits(8, 1<<20)); err != nil {
		t.Errorf("within the budget: %v", err)
	}
	err = o.Apply(yaml.MustParse("a: 1\n"), budget.Limits(7, 1<<20))
	if err == nil || !strings.Contains(err.Error(), "more than 7 nodes") {
		t.Errorf("over the budget: %v", err)
	}
	m, err := ParseMergePatch(yaml.MustParse(`{b: {c: [1, 2]}}`))
	if err != nil {
		t.Fatal(err)
	}
	err = m.Apply(yaml.MustParse("a: 1\n"), budget.Limits(3, 1<<20))
	if err == nil || !strings.Contains(err.Error(), "more than 3 nodes") {
		t.Errorf("a merge patch over the budget: %v", err)
	}
}

func TestJSONNodes(t *testing.T) {
	for text, want := range map[string]int64{
		`1`:                       1,
		`[1,2,3]`:                 4,
		`{"a":1,"b":[true]}`:      6,  // object, a, 1, b, list, true
		`{"a,b:[{":"x\"]:,{"}`:    3,  // punctuation inside strings is text
		`{"a":{"b":{}},"c":[[]]}`: 10, // 8, and one for each empty {} and []
	} {
		if got := jsonNodes([]byte(text)); got != want {
			t.Errorf("%s: %d nodes, want %d", text, got, want)
		}
	}
}
