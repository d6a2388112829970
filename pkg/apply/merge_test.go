package apply

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestKeyGivenTwice: a key given twice is an error, in the patch (the API
// server refuses it) and in what it merges into (the merge would read the
// last value, the edit change the first), and the value stays as it was.
func TestKeyGivenTwice(t *testing.T) {
	if _, err := ParsePatch(yaml.MustParse("spec:\n  replicas: 1\n  replicas: 2\n")); err == nil ||
		!strings.Contains(err.Error(), `the key "replicas" is given twice in spec (lines 2 and 3 of the patch)`) {
		t.Errorf("a patch with a key twice: %v", err)
	}
	p, err := ParsePatch(yaml.MustParse("b: 1"))
	if err != nil {
		t.Fatal(err)
	}
	const text = "a: 1\na: 2\n"
	dst := yaml.MustParse(text)
	err = p.Merge(dst, Type{}, nil)
	if err == nil || !strings.Contains(err.Error(), `the key "a" is given twice at the top level (lines 1 and 2 of the value)`) {
		t.Errorf("a value with a key twice: %v", err)
	}
	if got := dst.MustString(); got != text {
		t.Errorf("the value changed:\n%s", got)
	}
}
