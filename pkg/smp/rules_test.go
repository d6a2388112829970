package smp

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// TestRulesExamples runs the examples of docs/strategic-merge.md, so the document cannot
// drift from the code.
func TestRulesExamples(t *testing.T) {
	envT := object(map[string]*schema.Type{"env": keyedList(nil, "name")})
	runCases(t, []mergeCase{{
		name:  "1 maps merge",
		dst:   "metadata:\n  name: api # main\n  labels:\n    app: api",
		patch: "metadata:\n  labels:\n    team: shop",
		want:  "metadata:\n  name: api # main\n  labels:\n    app: api\n    team: shop",
	}, {
		name:  "2 scalars replace",
		dst:   "replicas: 1 # default\nimage: \"nginx:1\"",
		patch: "replicas: 3 # prod\nimage: nginx:2",
		want:  "replicas: 3 # prod\nimage: \"nginx:2\"",
	}, {
		name:  "3 null deletes",
		dst:   "spec:\n  paused: true\n  replicas: 1",
		patch: "spec:\n  paused: null",
		want:  "spec:\n  replicas: 1",
	}, {
		name:  "4 type mismatch",
		dst:   "data: legacy",
		patch: "data: {a: \"1\"}",
		want:  "data: {a: \"1\"}",
	}, {
		name:  "5 empty containers",
		t:     object(map[string]*schema.Type{"env": keyedList(nil, "name")}),
		dst:   "metadata: {}\nargs: [--v=2]\nenv: [{name: A}]",
		patch: "metadata: {annotations: {}}\nargs: []\nenv: []",
		want:  "metadata: {annotations: {}}\nargs: []\nenv: [{name: A}]",
	}, {
		name:  "6 atomic lists",
		dst:   "args: [--v=2, --x]",
		patch: "args: [--port=80]",
		want:  "args: [--port=80]",
	}, {
		name:  "8 key defaults",
		t:     object(map[string]*schema.Type{"ports": containerPortT}),
		dst:   "ports:\n- containerPort: 53\n  protocol: UDP\n- containerPort: 53\n  protocol: TCP",
		patch: "ports:\n- containerPort: 53\n  hostPort: 5353",
		want:  "ports:\n- containerPort: 53\n  protocol: UDP\n- containerPort: 53\n  protocol: TCP\n  hostPort: 5353",
	}, {
		name:  "11 sets",
		t:     object(map[string]*schema.Type{"finalizers": setList()}),
		dst:   "finalizers: [a, b]",
		patch: "finalizers: [c, a]",
		want:  "finalizers: [a, b, c]",
	}, {
		name:  "12 $patch: replace",
		dst:   "strategy:\n  type: RollingUpdate\n  rollingUpdate: {maxSurge: 1}",
		patch: "strategy:\n  $patch: replace\n  type: Recreate",
		want:  "strategy:\n  type: Recreate",
	}, {
		name:  "13 $patch: delete",
		dst:   "securityContext: {runAsUser: 1}\nimage: x",
		patch: "securityContext:\n  $patch: delete",
		want:  "image: x",
	}, {
		name:  "14 list elements",
		t:     object(map[string]*schema.Type{"env": keyedList(nil, "name"), "containers": keyedList(nil, "name")}),
		dst:   "env: [{name: A, value: 1}, {name: B}]\ncontainers: [{name: a}, {name: b}]",
		patch: "env:\n- {name: A, $patch: delete}\ncontainers:\n- $patch: replace\n- name: c",
		want:  "env: [{name: B}]\ncontainers:\n- name: c",
	}, {
		name:  "15 $retainKeys",
		dst:   "strategy:\n  type: RollingUpdate\n  rollingUpdate: {maxSurge: 1}",
		patch: "strategy:\n  $retainKeys: [type]\n  type: Recreate",
		want:  "strategy:\n  type: Recreate",
	}, {
		name:  "16 $setElementOrder",
		t:     envT,
		dst:   "env:\n- name: A\n- name: B",
		patch: "$setElementOrder/env:\n- name: C\n- name: B\nenv:\n- {name: C, value: x}",
		want:  "env:\n- {name: C, value: x}\n- name: A\n- name: B",
	}, {
		name:  "16 $setElementOrder of existing elements",
		t:     envT,
		dst:   "env:\n- name: A\n- name: B\n- name: C",
		patch: "$setElementOrder/env:\n- name: C\n- name: A",
		want:  "env:\n- name: B\n- name: C\n- name: A",
	}, {
		name:  "17 $deleteFromPrimitiveList",
		dst:   "finalizers: [a, b]",
		patch: "$deleteFromPrimitiveList/finalizers: [b]",
		want:  "finalizers: [a]",
	}, {
		name:   "19 defaults",
		t:      envT,
		opts:   Options{Default: true},
		filled: 2,
		dst:    "replicas: 3\nenv: [{name: A}]",
		patch:  "replicas: 1\npaused: false\nenv:\n- {name: A, value: x}\n- {name: B, value: y}",
		want:   "replicas: 3\nenv: [{name: A, value: x}]\npaused: false",
	}})
}

// Strings a YAML 1.1 reader (kubectl, PyYAML) takes for numbers or
// booleans are written quoted, whether new or replacing a plain string:
// 12:30:45 is 45045 to PyYAML, 1:20 is 80.
func TestYAML11Quoting(t *testing.T) {
	runCases(t, []mergeCase{{
		name:  "a new value",
		dst:   "a: x",
		patch: "at: 12:30:45\nflag: on\nratio: 190:20:30.15",
		want:  "a: x\nat: \"12:30:45\"\nflag: \"on\"\nratio: \"190:20:30.15\"",
	}, {
		name:  "a plain string replaced",
		dst:   "at: noon",
		patch: "at: 1:20",
		want:  "at: \"1:20\"",
	}, {
		name:  "an equal value is left as it is",
		dst:   "at: 1:20",
		patch: "at: 1:20",
		want:  "at: 1:20",
	}})
}
