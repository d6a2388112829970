package multipatch

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// No result quotes a value of a Secret a patch fails on.
func TestNoSecretInResults(t *testing.T) {
	fnruntest.CheckNoSecrets(t, Function, "testdata")
}
