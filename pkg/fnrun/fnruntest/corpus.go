package fnruntest

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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
