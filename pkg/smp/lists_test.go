package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

var (
	// the seed's CRD: a list merged by the keys [foo, bar]
	seedT  = object(map[string]*schema.Type{"list": keyedList(nil, "foo", "bar")})
	namedT = object(map[string]*schema.Type{"list": keyedList(nil, "name")})
	setT   = object(map[string]*schema.Type{"list": setList()})
)

const seedLive = `
	list:
	- foo: a
	  bar: x
	  other: 1
	- foo: a
	  bar: y
	  other: 2
	- foo: b
	  bar: x
	  other: 3`

func TestSeedMultiFieldKeys(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "patch 1 merges the element with both keys equal",
		t:    seedT,
		dst:  seedLive,
		patch: `
			list:
			- foo: a # field 1 of merge key
			  bar: x # field 2 of merge key
			  other: 4
			  another: val`,
		want: `
			list:
			- foo: a # field 1 of merge key
			  bar: x # field 2 of merge key
			  other: 4
			  another: val
			- foo: a
			  bar: y
			  other: 2
			- foo: b
			  bar: x
			  other: 3`,
	}, {
		name: "patch 2 deletes the element with both keys equal",
		t:    seedT,
		dst:  seedLive,
		patch: `
			list:
			- $patch: delete
			  foo: a # field 1 of merge key
			  bar: x # field 2 of merge key`,
		want: `
			list:
			- foo: a
			  bar: y
			  other: 2
			- foo: b
			  bar: x
			  other: 3`,
	}, {
		name: "a patch element without one of the keys is an error, never dropped",
		t:    seedT,
		dst:  seedLive,
		patch: `
			list:
			- foo: a
			  other: 5`,
		err: `list: element 0 (foo=a) lacks "bar": the list merges by [foo, bar] and "bar" has no default`,
	}, {
		name: "$patch: delete without all keys is an error too",
		t:    seedT,
		dst:  seedLive,
		patch: `
			list:
			- $patch: delete
			  bar: x`,
		err: `list: element 0 (bar=x) lacks "foo"`,
	}})
}

func TestReplaceLists(t *testing.T) {
	runCases(t, []mergeCase{{
		name:  "without a schema the patch list replaces the list",
		dst:   "args: [a, b, c]",
		patch: "args: [d]",
		want:  "args: [d]",
	}, {
		name: "a list equal to the patch is left as it is, comments included",
		dst: `
			args:
			- a # first
			- "b"`,
		patch: "args: [a, b]",
		want: `
			args:
			- a # first
			- "b"`,
	}, {
		name:  "[] clears a replaced list",
		dst:   "args: [a, b]",
		patch: "args: []",
		want:  "args: []",
	}, {
		name: "{$patch: replace} and {$patch: merge} markers are dropped",
		dst:  "args: [a]",
		patch: `
			args:
			- $patch: replace
			- b
			- $patch: merge`,
		want: "args:\n- b",
	}, {
		name:  "{$patch: delete} in a list deletes the list",
		dst:   "args: [a]\nb: 1",
		patch: "args: [{$patch: delete}]",
		want:  "b: 1",
	}, {
		name:  "null elements are values, not deletions",
		dst:   "args: [a]",
		patch: "args: [x, null]",
		want:  "args: [x, null]",
	}, {
		name:  "$patch: delete on an element of a list without keys is an error",
		dst:   "items: [{name: a}, {name: b}]",
		patch: "items: [{name: a, $patch: delete}]",
		err:   "items: element 0 has $patch: delete, but this list has no merge keys",
	}, {
		name:  "a list that asks for both replace and delete is an error",
		dst:   "items: [a]",
		patch: "items: [{$patch: replace}, {$patch: delete}]",
		err:   "items: the list asks for both $patch: replace and $patch: delete",
	}, {
		name:  "an unknown list marker is an error",
		dst:   "items: [a]",
		patch: "items: [{$patch: shuffle}]",
		err:   `items: unknown $patch directive "shuffle"`,
	}, {
		name:  "a keyed strategy without keys falls back to replace",
		t:     object(map[string]*schema.Type{"l": {Strategy: schema.MergeByKeys}}),
		dst:   "l: [{a: 1}]",
		patch: "l: [{b: 2}]",
		want:  "l: [{b: 2}]",
	}})
}

func TestSetLists(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "a set gains the patch's missing values, original order first",
		t:    setT,
		dst: `
			list:
			- b
			- a # keep`,
		patch: "list: [c, a, d, c]",
		want: `
			list:
			- b
			- a # keep
			- c
			- d`,
	}, {
		name:  "duplicates already in the document stay",
		t:     setT,
		dst:   "list: [a, a]",
		patch: "list: [a, b]",
		want:  "list: [a, a, b]",
	}, {
		name:  "values compare with their type: 1 and \"1\" differ",
		t:     setT,
		dst:   "list: [1]",
		patch: `list: ["1", 1]`,
		want:  `list: [1, "1"]`,
	}, {
		name:  "[] merges nothing into a set, creates it when absent",
		t:     object(map[string]*schema.Type{"list": setList(), "other": setList()}),
		dst:   "list: [a]",
		patch: "list: []\nother: []",
		want:  "list: [a]\nother: []",
	}, {
		name:  "$deleteFromPrimitiveList removes every occurrence",
		t:     setT,
		dst:   "list: [a, b, a, c]",
		patch: "$deleteFromPrimitiveList/list: [a, x]",
		want:  "list: [b, c]",
	}, {
		name:  "$deleteFromPrimitiveList runs before the list merges: the patch can re-add",
		t:     setT,
		dst:   "list: [a, b]",
		patch: "list: [a]\n$deleteFromPrimitiveList/list: [a, b]",
		want:  "list: [a]",
	}, {
		name:  "$deleteFromPrimitiveList on a missing list does nothing",
		t:     setT,
		dst:   "other: 1",
		patch: "$deleteFromPrimitiveList/list: [a]",
		want:  "other: 1",
	}, {
		name:  "$deleteFromPrimitiveList works on lists without a schema too",
		dst:   "finalizers: [a, b]",
		patch: "$deleteFromPrimitiveList/finalizers: [b]",
		want:  "finalizers: [a]",
	}, {
		name:  "$deleteFromPrimitiveList needs values",
		t:     setT,
		dst:   "list: [a]",
		patch: "$deleteFromPrimitiveList/list: [{a: 1}]",
		err:   "$deleteFromPrimitiveList/list must be a list of values, found a map in it",
	}, {
		name:  "$deleteFromPrimitiveList needs a list name",
		t:     setT,
		dst:   "list: [a]",
		patch: "$deleteFromPrimitiveList/: [a]",
		err:   "$deleteFromPrimitiveList/ needs the name of a list",
	}, {
		name:  "$patch: delete on a set element is an error",
		t:     setT,
		dst:   "list: [a]",
		patch: "list: [{$patch: delete, x: a}]",
		err:   "list: element 0 has $patch: delete",
	}, {
		name:  "null deletes a set",
		t:     setT,
		dst:   "list: [a]\nb: 1",
		patch: "list: null",
		want:  "b: 1",
	}, {
		name:  "{$patch: replace} replaces a set",
		t:     setT,
		dst:   "list: [a, b]",
		patch: "list: [{$patch: replace}, c]",
		want:  "list: [c]",
	}})
}
