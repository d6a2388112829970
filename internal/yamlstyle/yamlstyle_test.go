package yamlstyle

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestQuoteIfAmbiguous(t *testing.T) {
	for value, quoted := range map[string]bool{
		"yes": true, "on": true, "off": true, "y": true, "N": true, "0755": true,
		"hello": false, "www.example.com": false, "": false,
	} {
		n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
		QuoteIfAmbiguous(n)
		if got := n.Style == yaml.DoubleQuotedStyle; got != quoted {
			t.Errorf("%q: quoted = %v, want %v", value, got, quoted)
		}
	}
	// not a string: left alone
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
	QuoteIfAmbiguous(n)
	if n.Style != 0 {
		t.Error("a boolean was quoted")
	}
}
