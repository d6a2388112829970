package fnruntest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// CorpusEnv names the environment variable that points at the corpus of
// real manifests (the folder holding resourcelist.py); without it, the
// corpus is looked for beside the repository, in ../shared/corpus.
const CorpusEnv = "PATCHWORK_CORPUS"

// CorpusDir is the corpus of real manifests: $PATCHWORK_CORPUS, else
// ../shared/corpus beside the repository root; "" when neither holds its
// resourcelist.py.
func CorpusDir() string {
	if dir := os.Getenv(CorpusEnv); dir != "" {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	root := moduleRoot(wd)
	if root == "" {
		return ""
	}
	corpus := filepath.Join(filepath.Dir(root), "shared", "corpus")
	if _, err := os.Stat(filepath.Join(corpus, "resourcelist.py")); err != nil {
		return ""
	}
	return corpus
}

// moduleRoot is the directory holding go.mod at or above dir, "" when
// there is none.
func moduleRoot(dir string) string {
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// CorpusList is the ResourceList kpt hands a function for a package of
// copies copies of the corpus of real manifests (licence headers, comments,
// CRDs, flow collections, non-ASCII text as their projects ship them), with
// config as its functionConfig: what the corpus's resourcelist.py writes
// through `kpt fn source`. Lists are cached in the temporary directory by
// copies and config. The test or benchmark is skipped when the corpus,
// python3 or kpt is missing.
func CorpusList(tb testing.TB, copies int, config string) []byte {
	tb.Helper()
	corpus := CorpusDir()
	if corpus == "" {
		tb.Skipf("no corpus of real manifests: set %s to the folder holding resourcelist.py", CorpusEnv)
	}
	for _, tool := range []string{"python3", "kpt"} {
		if _, err := exec.LookPath(tool); err != nil {
			tb.Skipf("the corpus list needs %s on PATH", tool)
		}
	}
	key := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s", corpus, copies, config)))
	cached := filepath.Join(os.TempDir(), fmt.Sprintf("patchwork-corpus-%x.yaml", key[:8]))
	if b, err := os.ReadFile(cached); err == nil {
		return b
	}
	return writeCorpusList(tb, corpus, copies, config, cached)
}

// writeCorpusList has the corpus's resourcelist.py write the list, and
// keeps it in cached.
func writeCorpusList(tb testing.TB, corpus string, copies int, config, cached string) []byte {
	dir := tb.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(dir, "list.yaml")
	cmd := exec.Command("python3", filepath.Join(corpus, "resourcelist.py"), fmt.Sprint(copies), out, cfg)
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("resourcelist.py: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(out, cached); err != nil {
		_ = os.WriteFile(cached, b, 0o644) // another file system: copy
	}
	return b
}

// ManifestList is the ResourceList kpt would hand a function for the
// resources of the corpus folders named (keda, metrics-server: the
// corpus's projects resourcelist.py leaves out), copies times over (names
// suffixed -cN from the second copy on, which leave the CRDs out, as
// resourcelist.py's copies do), with config as its
// functionConfig: every YAML file's resources, path-annotated and written
// as kyaml's writer writes a list. Files that are not resources (JSON
// patches of a kustomization) are left out. Skipped without the corpus.
func ManifestList(tb testing.TB, copies int, config string, folders ...string) []byte {
	tb.Helper()
	corpus := CorpusDir()
	if corpus == "" {
		tb.Skipf("no corpus of real manifests: set %s to the folder holding resourcelist.py", CorpusEnv)
	}
	var items []*yaml.RNode
	for c := range copies {
		for _, folder := range folders {
			items = append(items, manifests(tb, corpus, folder, c)...)
		}
	}
	var b bytes.Buffer
	w := kio.ByteWriter{Writer: &b, KeepReaderAnnotations: true, FunctionConfig: yaml.MustParse(config),
		WrappingKind: kio.ResourceListKind, WrappingAPIVersion: kio.ResourceListAPIVersion}
	if err := w.Write(items); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// manifests are the resources of the YAML files below folder, as copy c.
func manifests(tb testing.TB, corpus, folder string, c int) []*yaml.RNode {
	var items []*yaml.RNode
	err := filepath.WalkDir(filepath.Join(corpus, folder), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (filepath.Ext(path) != ".yaml" && filepath.Ext(path) != ".yml") {
			return err
		}
		rel, _ := filepath.Rel(corpus, path)
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		read, err := (&kio.ByteReader{Reader: bytes.NewReader(raw), SetAnnotations: map[string]string{
			kioutil.PathAnnotation: fmt.Sprintf("c%d/%s", c, rel)}}).Read()
		if err != nil {
			return nil // not resources
		}
		for _, it := range read {
			if it.YNode().Kind != yaml.MappingNode {
				return nil // a JSON patch file
			}
		}
		for _, it := range read {
			if c == 0 {
				items = append(items, it)
			} else if it.GetKind() != "CustomResourceDefinition" {
				items = append(items, it)
				if err := it.SetName(fmt.Sprintf("%s-c%d", it.GetName(), c)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return items
}
