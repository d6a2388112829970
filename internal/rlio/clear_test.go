package rlio

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzClearEmptyAnnotations: clearEmptyAnnotations, which calls kyaml's
// yaml.ClearEmptyAnnotations only where mayClear says it might act, and
// clears the annotations the migration emptied itself (clearEmptyMap), leaves
// every item as kyaml's function on every item leaves it, and fails where
// it fails.
func FuzzClearEmptyAnnotations(f *testing.F) {
	for _, s := range []string{
		"kind: A\nmetadata:\n  name: a\n  annotations: {}\n",
		"kind: A\nmetadata: {}\n",
		"kind: A\nmetadata: {annotations: {}}\nspec: {}\n",
		"kind: A\nmetadata:\n  annotations: {} # emptied\n  name: a\n",
		"kind: A\nmetadata:\n  annotations: &e {}\n  labels: *e\n",
		"kind: A\nmetadata:\n  annotations:\n",
		"kind: A\nmetadata:\n  annotations: x\n  labels: {a: b}\n",
		"kind: A\nmetadata: x\n",
		"kind: A\nmetadata: [a]\n",
		"kind: A\nmetadata: &m {annotations: {}}\nother: *m\n",
		"kind: A\nmetadata: {name: a, annotations: {a: b}, annotations: {}}\n",
		"kind: A\nmetadata: {name: a}\nmetadata: {}\n",
		"kind: A\nmetadata:\n  name: a\n  annotations:\n    k: v\n",
		"- a\n- b\n",
		"plain\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ours, err := yaml.Parse(s)
		if err != nil {
			return
		}
		theirs := ours.Copy()
		errOurs := clearEmptyAnnotations(ours)
		errTheirs := yaml.ClearEmptyAnnotations(theirs)
		if (errOurs == nil) != (errTheirs == nil) {
			t.Fatalf("%q: error %v, kyaml's %v", s, errOurs, errTheirs)
		}
		if a, b := ours.MustString(), theirs.MustString(); a != b {
			t.Fatalf("%q:\n%s\nkyaml's:\n%s", s, a, b)
		}
	})
}
