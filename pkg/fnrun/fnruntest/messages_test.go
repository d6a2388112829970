package fnruntest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJargon(t *testing.T) {
	for _, bad := range []string{
		"replace operation value must be object or array: %!w(<nil>)",
		"cannot unmarshal number into Go struct field Args.configMapGenerator.name of type string",
		"json: cannot unmarshal number into Go value of type map[string]*jsonpatch.lazyNode",
		"got map[string]interface {}",
		"got []interface {}",
		"value <nil>",
		"a *yaml.Node",
	} {
		if Jargon(bad) == "" {
			t.Errorf("no jargon found in %q", bad)
		}
	}
	for _, good := range []string{
		`patches[2]: apps/v1 Deployment prod/api: spec.template.spec.containers[name=app]: want a string, got a number (line 5)`,
		`structured-replacement: replacements[0].source: no resource matches {kind=ConfigMap, name=*-web}`,
		`file "../../…/etc/passwd" is outside the config's directory`,
		`op[0] replace "": path "" is the whole resource`,
	} {
		if j := Jargon(good); j != "" {
			t.Errorf("jargon %q found in %q", j, good)
		}
	}
}

// Every message a golden case or an e2e case expects is free of Go jargon
// (TestGolden of each function also checks every message its runs produce).
func TestExpectedMessagesHaveNoJargon(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		name := d.Name()
		if name != "expected-error.txt" && name != "expected-warnings.txt" &&
			!(name == "results.yaml" && filepath.Base(filepath.Dir(path)) == ".expected") {
			return nil
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(raw), "\n") {
			if j := Jargon(line); j != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: Go jargon %q in %s", rel, i+1, j, line)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("only %d expectation files found below %s", checked, root)
	}
}
