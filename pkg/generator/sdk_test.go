package generator

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn/testhelpers"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/sdk"
)

// The function through the kpt SDK, for Go users who build on it
// (WRITE_GOLDEN_OUTPUT=1 rewrites _expected.yaml).
func TestSDKGolden(t *testing.T) {
	testhelpers.RunGoldenTests(t, "testdata/sdk", sdk.Processor(Function))
}
