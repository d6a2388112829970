package readme

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// metadata is a function's functions/<name>/metadata.yaml, in the kpt
// functions catalog's format.
type metadata struct {
	Image              string   `json:"image"`
	Description        string   `json:"description"`
	Tags               []string `json:"tags"`
	SourceURL          string   `json:"sourceURL"`
	ExamplePackageURLs []string `json:"examplePackageURLs"`
	Emails             []string `json:"emails,omitempty"`
	Hidden             bool     `json:"hidden,omitempty"`
	License            string   `json:"license"`
}

const repoURL = "https://github.com/patchwork-krm/patchwork/tree/main/"

// TestMetadata: every function has a metadata.yaml with the catalog's
// fields and no others, naming its own image and source directory, and its
// examplePackageURLs are exactly the examples/<name>-<case>/ packages the
// repository holds (each a kpt package): none missing, none invented; the
// function's page links each of them.
func TestMetadata(t *testing.T) {
	mains, err := filepath.Glob(filepath.Join(root, "functions/*/main.go"))
	if err != nil || len(mains) == 0 {
		t.Fatalf("no functions found (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(root, "LICENSE")); err != nil {
		t.Errorf("metadata says Apache-2.0 but: %v", err)
	}
	for _, m := range mains {
		name := filepath.Base(filepath.Dir(m))
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(root, "functions", name, "metadata.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			page, err := os.ReadFile(filepath.Join(root, "functions", name, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			var md metadata
			if err := yaml.UnmarshalStrict(raw, &md); err != nil {
				t.Fatalf("metadata.yaml: %v", err)
			}
			if want := "ghcr.io/patchwork-krm/" + name; md.Image != want {
				t.Errorf("image %q, want %q", md.Image, want)
			}
			if md.Description == "" || strings.Contains(md.Description, "\n") {
				t.Errorf("description must be one non-empty line: %q", md.Description)
			}
			if len(md.Tags) == 0 {
				t.Error("no tags")
			}
			if want := repoURL + "functions/" + name; md.SourceURL != want {
				t.Errorf("sourceURL %q, want %q", md.SourceURL, want)
			}
			if md.License != "Apache-2.0" {
				t.Errorf("license %q, want Apache-2.0", md.License)
			}
			var listed []string
			for _, u := range md.ExamplePackageURLs {
				dir, ok := strings.CutPrefix(u, repoURL)
				if !ok || !strings.HasPrefix(dir, "examples/"+name+"-") {
					t.Errorf("examplePackageURLs: %s is not %sexamples/%s-<case>", u, repoURL, name)
					continue
				}
				if _, err := os.Stat(filepath.Join(root, dir, "Kptfile")); err != nil {
					t.Errorf("examplePackageURLs: %s: no such package in the repository (%v)", u, err)
				}
				listed = append(listed, dir)
				if !bytes.Contains(page, []byte("](../../"+dir+"/)")) {
					t.Errorf("functions/%s/README.md does not link %s/", name, dir)
				}
			}
			present, err := filepath.Glob(filepath.Join(root, "examples", name+"-*", "Kptfile"))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, k := range present {
				rel, _ := filepath.Rel(root, filepath.Dir(k))
				want = append(want, filepath.ToSlash(rel))
			}
			sort.Strings(listed)
			if len(want) == 0 {
				t.Errorf("no example package examples/%s-<case>/ in the repository", name)
			} else if strings.Join(listed, " ") != strings.Join(want, " ") {
				t.Errorf("examplePackageURLs list %v, the repository has %v", listed, want)
			}
		})
	}
}
