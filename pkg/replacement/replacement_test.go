package replacement

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

func TestGolden(t *testing.T) {
	fnruntest.RunGolden(t, Function, "testdata/golden")
}
