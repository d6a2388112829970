package readme

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// TestLinks checks every relative link of every page: the file or
// directory exists, and a #fragment names a heading of the linked page
// (GitHub's anchors). Splitting the README into pages is where such links
// break.
func TestLinks(t *testing.T) {
	for _, page := range pages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, page)
		for _, m := range link.FindAllStringSubmatch(string(fence.ReplaceAll(text, nil)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			linked := page
			if file != "" {
				linked = filepath.Join(filepath.Dir(page), file)
				if _, err := os.Stat(linked); err != nil {
					t.Errorf("%s: link %s: %v", name, target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !anchors(t, linked)[frag] {
				t.Errorf("%s: link %s: no heading with anchor #%s", name, target, frag)
			}
		}
	}
}

// anchors returns the GitHub anchors of a markdown page's headings.
func anchors(t *testing.T, page string) map[string]bool {
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(fence.ReplaceAll(text, nil)), -1) {
		out[slug(m[1])] = true
	}
	return out
}

func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestFrontPageShort: the root README is a front page (issue 12: at most
// 400 lines); a function's reference belongs on its own page.
func TestFrontPageShort(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(text), "\n"); n > 400 {
		t.Errorf("README.md has %d lines, want at most 400: move details to functions/<name>/README.md or docs/", n)
	}
}
