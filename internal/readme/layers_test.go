package readme

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/patchwork-krm/patchwork/"

// drawn is a package in docs/architecture.md's drawing of the layers: its
// layer and its place from the top.
type drawn struct {
	pkg   string
	layer int
	place int
}

// drawing reads the layers drawn in docs/architecture.md: a line starting
// with a digit starts a layer, and every line naming a package (first on
// the line, after the layer's number and name) is one of that layer.
func drawing(t *testing.T, text string) []drawn {
	re := regexp.MustCompile(`(?m)^(?:(\d)\s+\S+\s+|\s*)((?:pkg|internal)/[a-z0-9/]+?)\s`)
	var out []drawn
	seen := map[string]bool{}
	layer := -1
	for i, m := range re.FindAllStringSubmatch(text, -1) {
		if m[1] != "" {
			layer, _ = strconv.Atoi(m[1])
		}
		if layer < 0 {
			t.Fatalf("docs/architecture.md: %s is drawn before any layer", m[2])
		}
		if seen[m[2]] {
			t.Errorf("docs/architecture.md draws %s twice", m[2])
		}
		seen[m[2]] = true
		out = append(out, drawn{pkg: m[2], layer: layer, place: i})
	}
	return out
}

// TestLayers keeps docs/architecture.md's drawing of the layers true: a
// package imports only packages drawn below it, of a lower layer or of its
// own layer further down (a package's own internal packages aside).
func TestLayers(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]drawn{}
	for _, d := range drawing(t, string(text)) {
		at[d.pkg] = d
	}
	for _, d := range at {
		for _, imp := range imports(t, filepath.Join(root, d.pkg)) {
			o, listed := at[imp]
			if !listed {
				continue // its own internals, or a package of another's
			}
			if o.layer > d.layer || o.layer == d.layer && o.place < d.place {
				t.Errorf("%s (layer %d) imports %s, drawn above it (layer %d): move one of them in the drawing, or the code",
					d.pkg, d.layer, imp, o.layer)
			}
		}
	}
}

// imports lists the module's packages the non-test files of dir import.
func imports(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, is := range f.Imports {
			if p, _ := strconv.Unquote(is.Path.Value); strings.HasPrefix(p, module) {
				out = append(out, strings.TrimPrefix(p, module))
			}
		}
	}
	return out
}
