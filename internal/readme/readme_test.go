// Package readme keeps the documentation's examples honest: in every page
// (README.md, functions/*/README.md, docs/*.md), every fenced block that
// follows a marker
//
//	<!-- golden: DIR WHAT -->
//
// must equal what the golden case DIR (relative to the repository root)
// holds: WHAT is a file of the case (config.yaml, expected-warnings.txt...)
// or "diff", the unified diff from input.yaml to expected.yaml. The golden
// tests run those cases, so the pages show what really runs.
// UPDATE_README=1 rewrites the blocks from the cases.
package readme

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const root = "../.."

var marker = regexp.MustCompile("(?m)^<!-- golden: (\\S+) (\\S+) -->\n```[a-z]*\n")

// minBlocks is how many golden blocks the documentation held when the
// README was split into one page per function: a move that drops an
// example fails here instead of passing silently.
const minBlocks = 38

// pages lists the markdown pages that may carry golden examples.
func pages(t *testing.T) []string {
	t.Helper()
	var all []string
	for _, pattern := range []string{"README.md", "functions/*/README.md", "docs/*.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, m...)
	}
	return all
}

func TestReadmeExamples(t *testing.T) {
	total := 0
	for _, path := range pages(t) {
		total += checkPage(t, path)
	}
	if total < minBlocks {
		t.Errorf("%d golden blocks in the documentation, want at least %d: was an example lost?", total, minBlocks)
	}
	fns, err := filepath.Glob(filepath.Join(root, "functions/*/main.go"))
	if err != nil || len(fns) == 0 {
		t.Fatalf("no functions found (%v)", err)
	}
	for _, fn := range fns {
		page := filepath.Join(filepath.Dir(fn), "README.md")
		if n := checkPage(t, page); n == 0 {
			t.Errorf("%s has no golden example", page)
		}
	}
}

// checkPage compares every golden block of one page with its case and
// returns how many blocks it has.
func checkPage(t *testing.T, path string) int {
	t.Helper()
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Error(err)
		return 0
	}
	name, _ := filepath.Rel(root, path)
	var out bytes.Buffer
	rest := readme
	blocks := 0
	for {
		loc := marker.FindSubmatchIndex(rest)
		if loc == nil {
			out.Write(rest)
			break
		}
		blocks++
		dir, what := string(rest[loc[2]:loc[3]]), string(rest[loc[4]:loc[5]])
		body := rest[loc[1]:]
		end := bytes.Index(body, []byte("```\n"))
		if end < 0 {
			t.Fatalf("%s: unterminated block after golden marker %s %s", name, dir, what)
		}
		want, err := content(dir, what)
		if err != nil {
			t.Fatalf("%s: %s %s: %v", name, dir, what, err)
		}
		if got := string(body[:end]); got != want {
			t.Errorf("%s: block for %s %s differs from the golden case\n--- page ---\n%s--- case ---\n%s", name, dir, what, got, want)
		}
		out.Write(rest[:loc[1]])
		out.WriteString(want)
		rest = body[end:]
	}
	if blocks > 0 && os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return blocks
}

func content(dir, what string) (string, error) {
	full := filepath.Join(root, dir)
	if what != "diff" {
		b, err := os.ReadFile(filepath.Join(full, what))
		return string(b), err
	}
	cmd := exec.Command("diff", "-u", "--label", "input.yaml", "--label", "expected.yaml", "input.yaml", "expected.yaml")
	cmd.Dir = full
	b, err := cmd.Output()
	if len(b) == 0 {
		return "", fmt.Errorf("no diff between input.yaml and expected.yaml (%v)", err)
	}
	return strings.TrimSuffix(string(b), "\\ No newline at end of file\n"), nil
}
