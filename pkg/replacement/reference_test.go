package replacement

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestReferenceExamples checks that every example block in REFERENCE.md is
// the golden case file it names, byte for byte: the reference shows what
// the golden tests run.
func TestReferenceExamples(t *testing.T) {
	doc, err := os.ReadFile("REFERENCE.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- example: (\\S+) -->\n```[a-z]*\n(.*?)```\n")
	matches := re.FindAllSubmatch(doc, -1)
	if len(matches) < 10 {
		t.Fatalf("found %d examples in REFERENCE.md; the markers may have been broken", len(matches))
	}
	for _, m := range matches {
		name, block := string(m[1]), string(m[2])
		file, err := os.ReadFile(filepath.Join("testdata", "golden", name))
		if err != nil {
			t.Errorf("REFERENCE.md shows %s: %v", name, err)
			continue
		}
		if string(file) != block {
			t.Errorf("REFERENCE.md's copy of %s differs from the file:\n--- REFERENCE.md ---\n%s--- file ---\n%s", name, block, file)
		}
	}
}
