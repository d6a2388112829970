package yamlstream

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		text  string
		kinds []yaml.Kind
	}{
		{"", nil},
		{"# only a comment\n", nil},
		{"---\n---\n", nil},
		{"null\n---\n~\n", nil},
		{"a: 1\n", []yaml.Kind{yaml.MappingNode}},
		{"a: 1\n---\n- 1\n---\nplain\n", []yaml.Kind{yaml.MappingNode, yaml.SequenceNode, yaml.ScalarNode}},
		{"--- {a: 1}\n--- [1]\n", []yaml.Kind{yaml.MappingNode, yaml.SequenceNode}},
	} {
		docs, err := Split([]byte(c.text))
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		var kinds []yaml.Kind
		for _, d := range docs {
			kinds = append(kinds, d.Kind)
		}
		if len(kinds) != len(c.kinds) {
			t.Errorf("%q: got kinds %v, want %v", c.text, kinds, c.kinds)
			continue
		}
		for i := range kinds {
			if kinds[i] != c.kinds[i] {
				t.Errorf("%q: got kinds %v, want %v", c.text, kinds, c.kinds)
			}
		}
	}
}

// The split stops at the first document that does not parse, with
// yaml.v3's error (which internal/yamlerr places).
func TestSplitError(t *testing.T) {
	_, err := Split([]byte("a: 1\n---\nb: [1\n"))
	if err == nil || !strings.Contains(err.Error(), "yaml: ") {
		t.Fatalf("got %v, want yaml.v3's error", err)
	}
}
