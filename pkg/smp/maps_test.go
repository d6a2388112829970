package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

func TestMaps(t *testing.T) {
	runCases(t, []mergeCase{{
		name: "maps merge recursively, scalars replace, new keys are appended",
		dst: `
			metadata:
			  name: app
			  labels:
			    a: "1"
			spec:
			  replicas: 1
			  paused: false`,
		patch: `
			spec:
			  replicas: 3
			  minReadySeconds: 5
			metadata:
			  labels:
			    b: "2"`,
		want: `
			metadata:
			  name: app
			  labels:
			    a: "1"
			    b: "2"
			spec:
			  replicas: 3
			  paused: false
			  minReadySeconds: 5`,
	}, {
		name:  "null deletes a field",
		dst:   "a: 1\nb: {c: 2}\nd: 3",
		patch: "b: null\nd: ~\ne: null",
		want:  "a: 1",
	}, {
		name:  "an empty map creates the field but merges nothing",
		dst:   "a: {x: 1}",
		patch: "a: {}\nb: {}",
		want:  "a: {x: 1}\nb: {}",
	}, {
		name: "an empty flow map in the document takes the patch's block style",
		dst:  "annotations: {}",
		patch: `
			annotations:
			  a: b`,
		want: `
			annotations:
			  a: b`,
	}, {
		name:  "a commented empty map that stays empty stays valid YAML",
		dst:   "a: {} # c\nb: [] # d",
		patch: "a:\n  x: null\nb:\n- $patch: replace",
		want:  "a: {} # c\nb: [] # d",
	}, {
		name:  "patch scalar replaces a map or list (patch wins)",
		dst:   "a: {x: 1}\nb: [1, 2]",
		patch: "a: text\nb: 7",
		want:  "a: text\nb: 7",
	}, {
		name: "patch map replaces a scalar or list",
		dst:  "a: text\nb: [1]\nc: null",
		patch: `
			a: {x: 1, y: null}
			b: {z: 2}
			c: {w: 3}`,
		want: "a: {x: 1}\nb: {z: 2}\nc: {w: 3}",
	}, {
		name: "patch list replaces a map",
		dst:  "a: {x: 1}",
		patch: `
			a:
			- 1`,
		want: `
			a:
			- 1`,
	}, {
		name: "unchanged values keep their quoting; changed ones of the same type too",
		dst: `
			a: "same"
			b: 'old'
			c: "80"
			d: plain`,
		patch: `
			a: same
			b: new
			c: 80
			d: "123"`,
		want: `
			a: "same"
			b: 'new'
			c: 80
			d: "123"`,
	}, {
		name: "comments are kept; a comment in the patch wins",
		dst: `
			# head of the document
			metadata:
			  name: app # the name
			  # about labels
			  labels:
			    a: "1" # keep me
			spec:
			  replicas: 1 # one replica
			  x: 1 # old`,
		patch: `
			metadata:
			  labels:
			    a: "2"
			spec:
			  replicas: 3
			  x: 2 # new`,
		want: `
			# head of the document
			metadata:
			  name: app # the name
			  # about labels
			  labels:
			    a: "2" # keep me
			spec:
			  replicas: 3 # one replica
			  x: 2 # new`,
	}, {
		name: "$patch: replace replaces a map",
		dst: `
			spec:
			  strategy:
			    type: RollingUpdate
			    rollingUpdate: {maxSurge: 1}
			  other: 1`,
		patch: `
			spec:
			  strategy:
			    $patch: replace
			    type: Recreate`,
		want: `
			spec:
			  strategy:
			    type: Recreate
			  other: 1`,
	}, {
		name: "$patch: replace with the same content leaves the map as it is",
		dst: `
			strategy:
			  type: Recreate # why
			  x: 1`,
		patch: "strategy: {$patch: replace, x: 1, type: Recreate}",
		want: `
			strategy:
			  type: Recreate # why
			  x: 1`,
	}, {
		name: "a map the schema marks ReplaceMap is replaced, not merged",
		t: object(map[string]*schema.Type{"selector": {ReplaceMap: true,
			Fields: map[string]*schema.Type{"matchLabels": mapOf(nil)}}}),
		dst:   "selector: {matchLabels: {a: b}, matchExpressions: []}",
		patch: "selector: {matchLabels: {c: d, e: null}}",
		want:  "selector: {matchLabels: {c: d}}",
	}, {
		name:  "$patch: replace at the root",
		dst:   "a: 1\nb: 2",
		patch: "$patch: replace\nc: 3",
		want:  "c: 3",
	}, {
		name:  "$patch: delete removes a map field; absent fields stay absent",
		dst:   "a: {x: 1}\nb: 2",
		patch: "a: {$patch: delete}\nc: {$patch: delete, y: 1}",
		want:  "b: 2",
	}, {
		name:  "$patch: merge is the default",
		dst:   "a: {x: 1}",
		patch: "a: {$patch: merge, y: 2}",
		want:  `a: {x: 1, "y": 2}`,
	}, {
		name:  "an unknown $patch value is an error",
		dst:   "a: {x: 1}",
		patch: "a: {$patch: remove}",
		err:   `a: unknown $patch directive "remove"`,
	}, {
		name:  "an unknown directive is an error",
		dst:   "a: {x: 1}",
		patch: "a: {$retainkeys: [x]}",
		err:   `a: unknown directive "$retainkeys"`,
	}, {
		name:  "a key set twice is an error (it could not merge idempotently)",
		dst:   "a: 1",
		patch: "b: null\nb: 2",
		err:   `the patch sets "b" twice`,
	}, {
		name:  "a key set twice in a large map is an error too",
		dst:   "a: 1",
		patch: "m:\n  k0: 0\n  k1: 1\n  k2: 2\n  k3: 3\n  k4: 4\n  k5: 5\n  k6: 6\n  k7: 7\n  k8: 8\n  k9: 9\n  k10: 10\n  k11: 11\n  k12: 12\n  k13: 13\n  k14: 14\n  k15: 15\n  k16: 16\n  k17: 17\n  k18: 18\n  k19: 19\n  k3: again",
		err:   `m: the patch sets "k3" twice`,
	}, {
		name:  "keys spelled differently that readers take for one are an error too (issue 19)",
		dst:   "data: {a: 1}",
		patch: "data: {true: x, True: y}",
		err:   `data: the patch sets "true" and "True", which YAML readers take for one key`,
	}, {
		name:  "map keys must be scalars",
		dst:   "a: 1",
		patch: "? [x]\n: 1",
		err:   "map keys must be scalars, found a list",
	}, {
		name:  "a field starting with $ is data when the schema declares it",
		t:     object(map[string]*schema.Type{"spec": object(map[string]*schema.Type{"$schema": nil})}),
		dst:   "spec: {a: 1}",
		patch: "spec: {$schema: x}",
		want:  "spec: {a: 1, $schema: x}",
	}, {
		name: "$retainKeys keeps only the listed fields",
		dst: `
			strategy:
			  type: RollingUpdate
			  rollingUpdate: {maxSurge: 1}`,
		patch: `
			strategy:
			  $retainKeys: [type]
			  type: Recreate`,
		want: `
			strategy:
			  type: Recreate`,
	}, {
		name: "$retainKeys keeps listed fields the patch does not set",
		dst:  "v: {name: a, configMap: {name: c}, emptyDir: {}}",
		patch: `
			v:
			  $retainKeys: [name, configMap]
			  configMap: {defaultMode: 420}`,
		want: "v: {name: a, configMap: {name: c, defaultMode: 420}}",
	}, {
		name:  "$retainKeys must list every field the patch sets",
		dst:   "v: {a: 1}",
		patch: "v: {$retainKeys: [a], b: 2, c: null}",
		err:   `v: the patch sets "b", which $retainKeys does not list`,
	}, {
		name:  "$retainKeys must be a list of values",
		dst:   "v: {a: 1}",
		patch: "v: {$retainKeys: a}",
		err:   "v: $retainKeys must be a list of values, found a string",
	}, {
		name: "the schema's retainKeys strategy alone clears nothing (as apimachinery)",
		t: object(map[string]*schema.Type{"strategy": {RetainKeys: true,
			Fields: map[string]*schema.Type{"type": nil, "rollingUpdate": nil}}}),
		dst:   "strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}",
		patch: "strategy: {type: Recreate, rollingUpdate: null}",
		want:  "strategy: {type: Recreate}",
	}, {
		name:  "keys with dots are bracketed in error paths",
		dst:   "metadata: {annotations: {}}",
		patch: "metadata: {annotations: {a.b/c: {$patch: nope}}}",
		err:   "metadata.annotations.[a.b/c]: unknown $patch directive",
	}, {
		name:  "directives in new content are applied, never copied",
		dst:   "a: 1",
		patch: "b: {$patch: replace, c: {$retainKeys: [d], d: 1}, e: null, $deleteFromPrimitiveList/f: [x], $setElementOrder/g: [y]}",
		want:  "a: 1\nb: {c: {d: 1}}",
	}})
}
