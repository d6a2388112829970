package podspec

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzPodSpecPatch: any PodSpec and container patch text is refused with an
// error or applies to a workload without panicking, and applying it a second
// time changes nothing (strategic patches only: JSON ops may append).
func FuzzPodSpecPatch(f *testing.F) {
	f.Add("containers:\n- name: envoy\n  image: e\n", "imagePullPolicy: Always\n")
	f.Add("volumes:\n- name: v\n  emptyDir: {}\n", "- op: add\n  path: /args\n  value: [a]\n")
	f.Add("containers:\n- name: app\n  $patch: delete\n", "env:\n- name: A\n  value: b\n")
	f.Fuzz(func(t *testing.T, patch, containerPatch string) {
		c := &compiled{name: "fuzz"}
		var err error
		if c.podSpec, err = parsePodSpecPatch(patch); err != nil {
			return
		}
		if containerPatch != "" && c.parseContainerPatch(containerPatch) != nil {
			return
		}
		owned := map[string]bool{}
		for _, name := range patchedNames(c.podSpec) {
			owned[name] = true
		}
		w := yaml.MustParse("containers:\n- name: app\n  image: a\n  ports:\n  - containerPort: 80\ninitContainers:\n- name: init\n")
		if _, _, err := c.apply(w, "spec", owned); err != nil {
			return
		}
		if c.ops != nil {
			return
		}
		once := w.MustString()
		if _, _, err := c.apply(w, "spec", owned); err != nil {
			t.Fatalf("second application failed")
		}
		if twice := w.MustString(); twice != once {
			t.Fatalf("not idempotent:\n%s\n---\n%s", once, twice)
		}
	})
}
