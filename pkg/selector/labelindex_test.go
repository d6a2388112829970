package selector

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Select through the label index selects what a look at every item
// selects: for selectors of every label form, with and without a kind,
// several targets, and after items' labels change (Refresh).
func TestSelectByLabelAsScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var items []*yaml.RNode
	for i := range 300 {
		items = append(items, yaml.MustParse(randomLabelled(r, i)))
	}
	ix := NewIndex(items, nil)
	labelSels := []string{"team=a", "team==b", "team in (c)", "team in (a,b)", "team!=a", "team", "!team",
		"team=a,env=x", "env=x,team=b", "env in (x)", "team=zz"}
	kinds := []string{"", "Deployment", "Service", "Deploy.*"}
	for round := range 3 {
		for _, ls := range labelSels {
			for _, kind := range kinds {
				for _, second := range []*Selector{nil, {Kind: "ConfigMap", LabelSelector: "env=y"}} {
					set := Set{Targets: []Selector{{Kind: kind, LabelSelector: ls}}}
					if second != nil {
						set.Targets = append(set.Targets, *second)
					}
					checkSelectAsScan(t, ix, set, fmt.Sprintf("round %d, %+v", round, set.Targets))
				}
			}
		}
		for i := range items { // relabel a third of the items
			if r.IntN(3) == 0 {
				if err := items[i].PipeE(yaml.SetLabel("team", string(rune('a'+r.IntN(4))))); err != nil {
					t.Fatal(err)
				}
				ix.Refresh(i)
			}
		}
	}
}

func checkSelectAsScan(t *testing.T, ix *Index, set Set, what string) {
	t.Helper()
	sm, err := CompileSet(set)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for i := range ix.Len() {
		if sm.Matches(ix.Resource(i)) {
			want = append(want, i)
		}
	}
	if got := sm.Select(ix); !slices.Equal(got, want) {
		t.Errorf("%s: selected %v, a scan selects %v", what, got, want)
	}
}

func randomLabelled(r *rand.Rand, i int) string {
	kind := []string{"Deployment", "Service", "ConfigMap"}[r.IntN(3)]
	doc := fmt.Sprintf("apiVersion: v1\nkind: %s\nmetadata:\n  name: r%d\n  labels:\n", kind, i)
	if r.IntN(4) > 0 {
		doc += fmt.Sprintf("    team: %c\n", 'a'+r.IntN(4))
	}
	doc += fmt.Sprintf("    env: %c\n", 'x'+r.IntN(2))
	return doc
}
