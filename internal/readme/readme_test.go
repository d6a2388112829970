// Package readme keeps the README's examples honest: every fenced block
// that follows a marker
//
//	<!-- golden: DIR WHAT -->
//
// must equal what the golden case DIR (relative to the repository root)
// holds: WHAT is a file of the case (config.yaml, expected-warnings.txt...)
// or "diff", the unified diff from input.yaml to expected.yaml. The golden
// tests run those cases, so the README shows what really runs.
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

func TestReadmeExamples(t *testing.T) {
	path := filepath.Join(root, "README.md")
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
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
			t.Fatalf("unterminated block after golden marker %s %s", dir, what)
		}
		want, err := content(dir, what)
		if err != nil {
			t.Fatalf("%s %s: %v", dir, what, err)
		}
		if got := string(body[:end]); got != want {
			t.Errorf("README block for %s %s differs from the golden case\n--- README ---\n%s--- case ---\n%s", dir, what, got, want)
		}
		out.Write(rest[:loc[1]])
		out.WriteString(want)
		rest = body[end:]
	}
	if blocks == 0 {
		t.Fatal("no golden markers in README.md")
	}
	if os.Getenv("UPDATE_README") != "" {
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
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
