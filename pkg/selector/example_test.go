package selector_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/selector"
)

func resources() []*yaml.RNode {
	var items []*yaml.RNode
	for _, doc := range []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: prod, labels: {tier: backend}}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api-canary, namespace: prod, labels: {tier: backend, track: canary}}\n",
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: prod, labels: {tier: backend}}\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: api, namespace: prod, labels: {tier: backend}}\n",
	} {
		items = append(items, yaml.MustParse(doc))
	}
	return items
}

// A config entry's targets: every backend workload, but not the canary.
// Kind and name are regular expressions matched against the whole value.
func ExampleCompileSet() {
	set, err := selector.CompileSet(selector.Set{
		Targets: []selector.Selector{{Kind: "Deployment|StatefulSet", LabelSelector: "tier=backend"}},
		Reject:  []selector.Selector{{LabelSelector: "track=canary"}},
	})
	if err != nil {
		panic(err)
	}
	ix := selector.NewIndex(resources(), nil)
	for _, i := range set.Select(ix) {
		fmt.Println(ix.Resource(i))
	}
	// Output:
	// apps/v1 Deployment prod/api
	// apps/v1 StatefulSet prod/db
}

// A selector that selects nothing says why, and what was probably meant.
func ExampleSetMatcher_Explain() {
	set, err := selector.CompileSet(selector.Set{
		Target: &selector.Selector{Kind: "deployment", Name: "api-*"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(set.Explain(selector.NewIndex(resources(), nil), "target"))
	// Output:
	// target {kind=deployment name=api-*} matches no resource (name is a regular expression, not a shell glob: did you mean "api-.*"?) (did you mean kind: Deployment?)
}

// A single selector, compiled once and matched against a resource's
// metadata; errors name the field.
func ExampleCompile() {
	m, err := selector.Compile(selector.Selector{APIVersion: "apps/v1", Name: "api"})
	if err != nil {
		panic(err)
	}
	for _, n := range resources() {
		r := selector.Describe(n)
		fmt.Println(r, m.Matches(&r))
	}
	_, err = selector.Compile(selector.Selector{LabelSelector: "tier in backend"})
	fmt.Println(err)
	// Output:
	// apps/v1 Deployment prod/api true
	// apps/v1 Deployment prod/api-canary false
	// apps/v1 StatefulSet prod/db false
	// v1 Service prod/api false
	// labelSelector "tier in backend": unable to parse requirement: found 'backend' expected: '('
}
