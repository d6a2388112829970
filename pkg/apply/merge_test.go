package apply

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestKeyGivenTwice: a key given twice in what a patch merges into is an
// error (the merge would read the last value, the edit change the first),
// and the value stays as it was. (A patch's own are package patch's:
// TestKeyGivenTwiceInAnyPatch.)
func TestKeyGivenTwice(t *testing.T) {
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
