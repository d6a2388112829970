package replacement

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn/testhelpers"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/sdk"
)

// TestSDKGolden runs the function through the kpt SDK's golden test layout
// (testdata/sdk/<case>/_fnconfig.yaml, resources.yaml, _expected.yaml), as
// Go users of the SDK would. WRITE_GOLDEN_OUTPUT=1 rewrites _expected.yaml.
func TestSDKGolden(t *testing.T) {
	testhelpers.RunGoldenTests(t, "testdata/sdk", sdk.Processor(Function))
}
