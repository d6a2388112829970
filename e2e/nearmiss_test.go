package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 30, "Every near miss, third round": each mistake's message, with
// its place and its fix, is a golden case of its function's package
// (pkg/<transform>/testdata/<case>/expected-error.txt). Here each runs
// through the built binary, standalone, as a user runs it: exit 1 and
// every expected line on stderr.
var nearMisses = map[string][]string{
	"structured-replacement": {"error-matcher-not-re2", "error-matcher-glob-or-anchor", "error-format-json-on-yaml", "error-template-shell-variable",
		"error-flow-bracket-unquoted"},
	"multi-patch": {"error-embedded-near-misses", "error-matcher-not-re2", "error-json-patch-field-not-set",
		"error-schema-file-near-miss", "error-schemas-not-a-list"},
	"podspec-patch":          {"error-mode-at-the-top"},
	"merge-values-generator": {"errors-every-file-reported", "errors-mergevalues-key-near-miss"},
}

// nearMissPackage is where a function's golden cases are.
var nearMissPackage = map[string]string{
	"structured-replacement": "replacement", "multi-patch": "multipatch",
	"podspec-patch": "podspec", "merge-values-generator": "generator",
}

func TestNearMissesThroughTheBinaries(t *testing.T) {
	for fn, cases := range nearMisses {
		bin := requireFunction(t, fn)
		for _, c := range cases {
			t.Run(fn+"/"+c, func(t *testing.T) {
				dir := filepath.Join(env.root, "pkg", nearMissPackage[fn], "testdata", c)
				want, err := os.ReadFile(filepath.Join(dir, "expected-error.txt"))
				if err != nil {
					t.Fatal(err)
				}
				r := run(t, dir, nil, nil, bin, "config.yaml", "input.yaml")
				if r.code != 1 || r.stdout != "" {
					t.Fatalf("want exit 1 and no output\n%s", r)
				}
				for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
					if line = strings.TrimSpace(line); line != "" && !strings.Contains(r.stderr, line) {
						t.Errorf("stderr lacks %q\n%s", line, r)
					}
				}
			})
		}
	}
}
