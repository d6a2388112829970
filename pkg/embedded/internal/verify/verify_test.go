package verify_test

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/verify"
)

// An edit of a YAML text's first document must leave the documents after
// it as readable as they were: the result is read to its end.
func TestVerifyReadsTheDocumentsAfterTheFirst(t *testing.T) {
	old, err := span.ParseYAML("a: 1\n--- {b: 2}\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verify.Verify(old, "a: 1\n--- {b: 2\n", nil); err == nil {
		t.Error("a broken second document passed")
	}
	if _, err := verify.Verify(old, "a: 1\n--- {b: 2}\n", nil); err != nil {
		t.Errorf("an unchanged text failed: %v", err)
	}
}
