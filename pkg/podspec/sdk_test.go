package podspec

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn/testhelpers"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/sdk"
)

// TestSDKGolden runs the function as a kpt SDK ResourceListProcessor, the
// way Go programs embedding it do, with the SDK's own golden-test helper.
func TestSDKGolden(t *testing.T) {
	testhelpers.RunGoldenTests(t, "testdata-sdk", sdk.Processor(Function))
}
