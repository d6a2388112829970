package replacement

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A path continuing past a null once read `holds the null ""`.
func TestPathThroughNullReadsWell(t *testing.T) {
	n := yaml.MustParse("spec:\n  a: null\n  b: ~\n  c:\n")
	for _, p := range []string{"spec.a.x", "spec.b.x", "spec.c.x"} {
		_, err := get(n.YNode(), fieldpath.MustParse(p), embedded.Options{})
		want := p[:len(p)-2] + " holds null, which has no x"
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), `""`) {
			t.Errorf("get(%s): %v, want %q", p, err, want)
		}
	}
}
