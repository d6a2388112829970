package replacement

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

func TestGolden(t *testing.T) {
	fnruntest.RunGolden(t, Function, "testdata")
}

// No result quotes a value read from a Secret, or copied out of one.
func TestNoSecretInResults(t *testing.T) {
	fnruntest.CheckNoSecrets(t, Function, "testdata")
}
