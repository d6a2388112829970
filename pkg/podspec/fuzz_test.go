package podspec

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// FuzzPodSpecPatch: any PodSpec and container patch text is refused with an
// error or applies to a workload without panicking, and applying it a second
// time changes nothing (strategic and apply patches: JSON ops may append);
// the same as a default (mode: default), which never adds a container, and
// as an apply patch (type: ApplyPatch).
func FuzzPodSpecPatch(f *testing.F) {
	f.Add("containers:\n- name: envoy\n  image: e\n", "imagePullPolicy: Always\n")
	f.Add("volumes:\n- name: v\n  emptyDir: {}\n", "- op: add\n  path: /args\n  value: [a]\n")
	f.Add("containers:\n- name: app\n  $patch: delete\n", "env:\n- name: A\n  value: b\n")
	f.Add("tolerations:\n- {key: a, operator: Exists}\ncontainers:\n- name: app\n  ports: [{containerPort: 53, protocol: UDP}]\n", "ports: [{containerPort: 80}]\n")
	f.Fuzz(func(t *testing.T, podSpec, containerPatch string) {
		for _, fill := range []bool{false, true} {
			checkPodSpecPatch(t, podSpec, containerPatch, 0, fill)
		}
		checkPodSpecPatch(t, podSpec, containerPatch, patch.Apply, false)
	})
}

func checkPodSpecPatch(t *testing.T, podSpec, containerPatch string, typ patch.Type, fill bool) {
	c := &compiled{name: "fuzz", fill: fill, typ: typ}
	docs, err := patch.Parse(podSpec, patch.Options{Into: patch.PodSpec, Type: typ, Default: fill, Check: checkPodSpec})
	if err != nil {
		return
	}
	c.podSpec = docs[0]
	if containerPatch != "" {
		docs, err := patch.Parse(containerPatch, patch.Options{Into: patch.Container, Type: typ, Default: fill, Check: checkContainer})
		if err != nil {
			return
		}
		c.container = docs[0]
	}
	owned := map[string]bool{}
	for _, name := range patchedNames(c.podSpec) {
		owned[name] = true
	}
	w := yaml.MustParse("containers:\n- name: app\n  image: a\n  ports:\n  - containerPort: 80\ninitContainers:\n- name: init\n")
	pod := schema.Builtin().Named(podSpecType)
	if _, err := c.apply(w, "spec", owned, pod, nil); err != nil {
		return
	}
	if fill && len(w.YNode().Content) > 0 {
		if n := len(w.Field("containers").Value.YNode().Content); n != 1 {
			t.Fatalf("a default added containers: %d", n)
		}
	}
	if c.container != nil && c.container.Type == patch.JSON {
		return
	}
	once := w.MustString()
	if _, err := c.apply(w, "spec", owned, pod, nil); err != nil {
		t.Fatalf("second application failed")
	}
	if twice := w.MustString(); twice != once {
		t.Fatalf("not idempotent:\n%s\n---\n%s", once, twice)
	}
}
