package embedded

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// With Options.Secret, no message shows a value of the text: the places
// that quote one (a string that holds no document, a scalar the path
// cannot go into) say "a secret value (not shown)" instead.
func TestSecretValuesStayOutOfMessages(t *testing.T) {
	const secret = "s3cr3t-value"
	keep := func(*yaml.Node) (*yaml.Node, error) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x"}, nil
	}
	for _, tt := range []struct{ text, path string }{
		{secret, "a"},                              // not a document
		{`{"a": "` + secret + `"}`, "a.b"},         // a string holding no document
		{"a: " + secret + "\n", "a.b"},             // the same in YAML
		{`{"a": 735412}`, "a.b"},                   // a number the path cannot go into
		{"a:\n  b: [" + secret + "]\n", "a.b.0.c"}, // a list element
	} {
		for _, secretOpt := range []bool{false, true} {
			opts := Options{Where: fieldpath.MustParse(`data.x`), Secret: secretOpt}
			_, gerr := Get(tt.text, fieldpath.MustParse(tt.path), opts)
			_, serr := Set(tt.text, fieldpath.MustParse(tt.path), opts, keep)
			for _, err := range []error{gerr, serr} {
				if err == nil {
					t.Fatalf("%q at %s: no error", tt.text, tt.path)
				}
				leaked := strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "735412")
				if secretOpt && leaked {
					t.Errorf("Secret: %q at %s: %v", tt.text, tt.path, err)
				}
				if !secretOpt && !leaked {
					t.Errorf("not secret: %q at %s: the value should be quoted: %v", tt.text, tt.path, err)
				}
			}
		}
	}
}
