package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

func TestSetElementOrder(t *testing.T) {
	runCases(t, []mergeCase{{
		name:  "reorders a list of values",
		t:     setT,
		dst:   "list: [a, b, c]",
		patch: "$setElementOrder/list: [b, c, a]",
		want:  "list: [b, c, a]",
	}, {
		name: "reorders a keyed list by its keys",
		t:    namedT,
		dst: `
			list:
			- name: a
			- name: b # bee
			- name: c`,
		patch: `
			$setElementOrder/list:
			- name: c
			- name: a
			- name: b`,
		want: `
			list:
			- name: c
			- name: a
			- name: b # bee`,
	}, {
		name:  "elements not named keep their place relative to those they preceded",
		t:     namedT,
		dst:   "list: [{name: a}, {name: b}, {name: c}, {name: d}]",
		patch: "$setElementOrder/list: [{name: d}, {name: b}]",
		want:  "list: [{name: a}, {name: c}, {name: d}, {name: b}]",
	}, {
		name:  "a new element goes where the order puts it (apimachinery's interleaving)",
		t:     namedT,
		dst:   "list: [{name: a}, {name: b}, {name: c}]",
		patch: "list: [{name: x}]\n$setElementOrder/list: [{name: x}, {name: b}]",
		want:  "list: [{name: x}, {name: a}, {name: b}, {name: c}]",
	}, {
		name:  "new elements the order does not name stay appended",
		t:     namedT,
		dst:   "list: [{name: a}, {name: b}]",
		patch: "list: [{name: y}]\n$setElementOrder/list: [{name: b}, {name: a}]",
		want:  `list: [{name: b}, {name: a}, {name: "y"}]`,
	}, {
		name:  "with deletion in the same patch (apimachinery's test)",
		t:     namedT,
		dst:   "list: [{name: 1}, {name: 2, other: b}]",
		patch: "$setElementOrder/list: [{name: 2}]\nlist: [{name: 1, $patch: delete}]",
		want:  "list: [{name: 2, other: b}]",
	}, {
		name:  "keyed entries may omit a key that has a default",
		t:     object(map[string]*schema.Type{"ports": containerPortT}),
		dst:   "ports: [{containerPort: 53, protocol: UDP}, {containerPort: 53}]",
		patch: "$setElementOrder/ports: [{containerPort: 53}, {containerPort: 53, protocol: UDP}]",
		want:  "ports: [{containerPort: 53}, {containerPort: 53, protocol: UDP}]",
	}, {
		name:  "names that match nothing are ignored",
		t:     setT,
		dst:   "list: [a, b]",
		patch: "$setElementOrder/list: [z, b, a]",
		want:  "list: [b, a]",
	}, {
		name:  "a missing list stays missing",
		t:     setT,
		dst:   "other: 1",
		patch: "$setElementOrder/list: [a]",
		want:  "other: 1",
	}, {
		name:  "keyed entries need their keys",
		t:     namedT,
		dst:   "list: []",
		patch: "$setElementOrder/list: [{value: 1}]",
		err:   `$setElementOrder/list: element 0 lacks "name"`,
	}, {
		name:  "keyed lists are ordered by keys, not values",
		t:     namedT,
		dst:   "list: []",
		patch: "$setElementOrder/list: [a]",
		err:   "$setElementOrder/list: element 0 is a string; the list merges by [name], so name elements by their keys",
	}, {
		name:  "lists without keys are ordered by values",
		dst:   "list: []",
		patch: "$setElementOrder/list: [{name: a}]",
		err:   "$setElementOrder/list: element 0 is a map; the list has no merge keys, so list its values",
	}, {
		name:  "the directive must be a list",
		dst:   "list: []",
		patch: "$setElementOrder/list: a",
		err:   "$setElementOrder/list must be a list, found a string",
	}, {
		name:  "the patched field must be a list",
		dst:   "list: []",
		patch: "$setElementOrder/list: [a]\nlist: a",
		err:   "$setElementOrder/list: list is a string in the patch, not a list",
	}, {
		name:  "the order works inside keyed elements",
		t:     deploymentT,
		dst:   "spec: {template: {spec: {containers: [{name: app, env: [{name: A}, {name: B}]}]}}}",
		patch: "spec: {template: {spec: {containers: [{name: app, $setElementOrder/env: [{name: B}, {name: A}]}]}}}",
		want:  "spec: {template: {spec: {containers: [{name: app, env: [{name: B}, {name: A}]}]}}}",
	}})
}
