package sdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBinariesDoNotLinkTheSDK keeps the package comment true: the function
// binaries never take the SDK path, so they do not link it.
func TestBinariesDoNotLinkTheSDK(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../../functions/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "krm-functions-sdk") {
		t.Error("a function binary links the kpt SDK; only package sdk may import it")
	}
}
