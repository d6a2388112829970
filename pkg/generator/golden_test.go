package generator

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// Every case runs twice (the second time on its own output) and must not
// change: kpt re-runs pipelines on their output.
func TestGolden(t *testing.T) {
	fnruntest.RunGolden(t, Function, "testdata")
}

// No result quotes a value of a Secret or a secretGenerator's literals,
// files or env-file lines.
func TestNoSecretInResults(t *testing.T) {
	fnruntest.CheckNoSecrets(t, Function, "testdata")
}
