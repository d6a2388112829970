package generator

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
)

// The kustomization in hash/testdata/kustomize, run through this function
// as a MergeValuesGenerator config (its generator fields are ours), must
// give what kustomize v5.8.2 built from it (saved beside it): the same
// names, hash suffixes included, and the same content. It covers envs,
// literals and files, quotes, a byte order mark and CRLF in an env file,
// binaryData, non-ASCII and HTML-escaped characters, Secret types, long
// base64, empty generators, and global and per-generator options.
func TestCreateMatchesKustomize(t *testing.T) {
	dir := filepath.Join("hash", "testdata", "kustomize")
	kust, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	config := yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: fixture\n" + string(kust))
	req := &fnrun.Request{Config: config, ConfigDir: dir}
	if out := Function.Process(req); out.Failed {
		t.Fatalf("run failed: %v", out.Results)
	}
	want := fnruntest.ReadResources(t, filepath.Join("hash", "testdata", "kustomize-v5.8.2-output.yaml"))
	if len(req.Items) != len(want) {
		t.Fatalf("generated %d resources, kustomize %d", len(req.Items), len(want))
	}
	byName := map[string]*yaml.RNode{}
	for _, w := range want {
		byName[w.GetKind()+"/"+w.GetName()] = w
	}
	for _, got := range req.Items {
		id := got.GetKind() + "/" + got.GetName()
		w, ok := byName[id]
		if !ok {
			t.Errorf("generated %s, which kustomize did not (a different hash suffix?)", id)
			continue
		}
		g := plainForm(t, got)
		if wc := plainForm(t, w); !reflect.DeepEqual(g, wc) {
			t.Errorf("%s differs from kustomize's:\n got %v\nwant %v", id, g, wc)
		}
	}
}

// plainForm is a resource's content as a map, without our annotation.
func plainForm(t *testing.T, n *yaml.RNode) map[string]any {
	t.Helper()
	c := n.Copy()
	if err := c.PipeE(yaml.ClearAnnotation(GeneratedFrom)); err != nil {
		t.Fatal(err)
	}
	if a := c.GetAnnotations(); len(a) == 0 {
		_ = c.PipeE(yaml.Lookup("metadata"), yaml.Clear("annotations"))
	}
	m, err := c.Map()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
