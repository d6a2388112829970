package apply

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinariesLinkNoClientGo keeps the package comment true: the built-in
// types are generated tables, so no function binary links client-go, the
// API types or kube-openapi's schemaconv; and only the functions with apply
// patches link this package (and structured-merge-diff) at all: it costs
// the others 0.4 MB for nothing.
func TestBinariesLinkNoClientGo(t *testing.T) {
	banned := []string{"k8s.io/client-go/", "k8s.io/api/", "k8s.io/apiextensions-apiserver/",
		"k8s.io/kube-openapi/pkg/schemaconv", "k8s.io/apimachinery/pkg/util/managedfields"}
	withApply := map[string]bool{"multi-patch": true, "podspec-patch": true}
	for _, fn := range []string{"multi-patch", "podspec-patch", "structured-replacement", "merge-values-generator"} {
		out, err := exec.Command("go", "list", "-deps", "../../functions/"+fn).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", fn, err, out)
		}
		deps := "\n" + string(out)
		for _, b := range banned {
			if strings.Contains(deps, "\n"+b) {
				t.Errorf("%s links %s", fn, b)
			}
		}
		if links := strings.Contains(deps, "\ngithub.com/patchwork-krm/patchwork/pkg/apply\n"); links != withApply[fn] {
			t.Errorf("%s: links package apply: %v, want %v", fn, links, withApply[fn])
		}
	}
}
