package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// Untouched means untouched (issue 29): a standalone run writes what the
// function did not change as the bytes it read, and what it changed as
// the edit and nothing else.

const untouchedDir = "e2e/untouched"

// TestUntouchedCorpus runs multi-patch standalone, with a config that
// selects nothing, on every file of the corpus of real manifests (licence
// headers, comments, flow collections, kustomize bases, CRDs, a Grafana
// dashboard): every file comes out as it went in, byte for byte.
func TestUntouchedCorpus(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	corpus := fnruntest.CorpusDir()
	if corpus == "" {
		t.Skipf("no corpus of real manifests: set %s to the folder holding resourcelist.py", fnruntest.CorpusEnv)
	}
	config := filepath.Join(env.root, untouchedDir, "nothing.yaml")
	files := 0
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !manifestFile(path) {
			return err
		}
		in, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		r := run(t, env.root, nil, in, bin, config)
		if r.code == 1 && r.stdout == "" && strings.Contains(r.stderr, "an item is not a map") {
			return nil // a JSON patch file of a kustomization, refused as it was before
		}
		if r.code != 0 || r.stdout != string(in) {
			t.Errorf("%s: not written back as read (exit %d):\n%s", path, r.code, firstDifference(string(in), r.stdout))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d files in the corpus at %s", files, corpus)
	}
}

// manifestFile reports whether path is a YAML or JSON file.
func manifestFile(path string) bool {
	switch filepath.Ext(path) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// firstDifference shows the first line where got differs from want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n--- read\n%s\n--- written\n%s", i+1, a, b)
		}
	}
	return "(the same lines)"
}

// untouchedPlain renders the chart of e2e/untouched, whose
// templates leave what Helm leaves (whitespace-only lines where an "if"
// was, "resources:" over an indented "{}", flow lists spaced as written,
// comments), without a post-renderer.
func untouchedPlain(t *testing.T, helm string, home []string) string {
	t.Helper()
	r := run(t, env.root, home, nil, helm, "template", "shop", filepath.Join(untouchedDir, "chart"))
	if r.code != 0 {
		t.Fatalf("helm template:\n%s", r)
	}
	return r.stdout
}

// patchedOnly is the plain output with the one line the config changes
// (the worker's replicas) changed: what the post-renderer must give.
func patchedOnly(t *testing.T, plain string) string {
	t.Helper()
	head, worker, ok := strings.Cut(plain, "# Source: untouched/templates/worker.yaml\n")
	if !ok || strings.Count(worker, "  replicas: 1\n") != 1 {
		t.Fatalf("the chart no longer renders the worker as this test expects:\n%s", plain)
	}
	return head + "# Source: untouched/templates/worker.yaml\n" + strings.Replace(worker, "  replicas: 1\n", "  replicas: 3\n", 1)
}

// TestUntouchedHelm: through the Helm 3 post-renderer, only the patched
// line differs from `helm template` without a post-renderer, and a second
// run over the output changes nothing; through the Helm 4 plugin, only the
// patched line differs from Helm 4 through a post-renderer that changes
// nothing.
func TestUntouchedHelm(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	config := filepath.Join(untouchedDir, "config.yaml")
	t.Run("helm3", func(t *testing.T) {
		helm, home := helmBin(t, 3), helmHome(t)
		want := patchedOnly(t, untouchedPlain(t, helm, home))
		r := run(t, env.root, home, nil, helm, "template", "shop", filepath.Join(untouchedDir, "chart"),
			"--post-renderer", bin, "--post-renderer-args", config)
		if r.code != 0 || r.stdout != want {
			t.Fatalf("more than the patched line changed:\n%s\n%s", r, firstDifference(want, r.stdout))
		}
		again := run(t, env.root, nil, []byte(r.stdout), bin, config)
		if again.code != 0 || again.stdout != r.stdout {
			t.Fatalf("a second run changed the output:\n%s", firstDifference(r.stdout, again.stdout))
		}
	})
	t.Run("helm4", func(t *testing.T) {
		// Helm 4 re-writes whatever a post-renderer plugin writes (flow
		// spacing, "{}" blocks, blank lines): the plugin's output is
		// compared with Helm 4's through a plugin that changes nothing.
		helm, home := helmBin(t, 4), helmHome(t)
		dir := helmPlugin(t, t.TempDir(), "v0.0.0-e2e", "multi-patch", "")
		for _, p := range []string{dir, filepath.Join(untouchedDir, "identity-plugin")} {
			if r := run(t, env.root, home, nil, helm, "plugin", "install", p); r.code != 0 {
				t.Fatalf("installing the plugin %s:\n%s", p, r)
			}
		}
		chart := filepath.Join(untouchedDir, "chart")
		identity := run(t, env.root, home, nil, helm, "template", "shop", chart, "--post-renderer", "identity")
		if identity.code != 0 {
			t.Fatalf("helm 4 through a plugin that changes nothing:\n%s", identity)
		}
		want := patchedOnly(t, identity.stdout)
		r := run(t, env.root, home, nil, helm, "template", "shop", chart,
			"--post-renderer", "multi-patch", "--post-renderer-args", config)
		if r.code != 0 || r.stdout != want {
			t.Fatalf("more than the patched line changed:\n%s\n%s", r, firstDifference(want, r.stdout))
		}
	})
}

// TestUntouchedLists (issue 28, items 5 and 6): a List keeps its wrapper
// (its comment, resourceVersion, annotations) in every position, whatever
// it holds (an empty SecretList, a nested List, a custom resource whose
// kind ends in List): a run that changes nothing writes it as read, and a
// run that labels every ConfigMap adds the label's lines and nothing else.
func TestUntouchedLists(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	files, err := filepath.Glob(filepath.Join(env.root, untouchedDir, "lists", "*.yaml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("the Lists of %s: %v %v", untouchedDir, files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r := run(t, env.root, nil, nil, bin, filepath.Join(untouchedDir, "nothing.yaml"), file)
			if r.code != 0 || r.stdout != string(in) {
				t.Fatalf("not written back as read:\n%s\n%s", r, firstDifference(string(in), r.stdout))
			}
			r = run(t, env.root, nil, nil, bin, filepath.Join(untouchedDir, "label.yaml"), file)
			added := regexp.MustCompile(`(?m)^( *)labels:\n *team: a\n`)
			if r.code != 0 || !added.MatchString(r.stdout) || added.ReplaceAllString(r.stdout, "") != string(in) {
				t.Fatalf("more than the label's lines changed:\n%s", r)
			}
		})
	}
}

// TestUntouchedUnplacedSaysSo: a stream kyaml's reader and YAML split
// differently (here, old Mac line ends) is written as kyaml writes it,
// and the run says so, even when it holds no resource, only comments that
// kyaml's reading drops.
func TestUntouchedUnplacedSaysSo(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	r := run(t, env.root, nil, []byte("# a comment\r# another\r"), bin, filepath.Join(untouchedDir, "nothing.yaml"))
	if r.code != 0 || !strings.Contains(r.stderr, "every resource is written whole") {
		t.Fatalf("want exit 0 and an info saying the stream is written whole:\n%s", r)
	}
}

// TestUntouchedResourceList (issue 29, item 1 for ResourceLists): a
// ResourceList laid out as no writer lays it out goes through the binary
// with its items' bytes kept: a config that matches nothing writes every
// item as read, one that labels one item rewrites that item and no other,
// and a run over that output changes no item. b's head comment, at the
// items' column, goes with b, and a stays as read.
func TestUntouchedResourceList(t *testing.T) {
	bin := requireFunction(t, "multi-patch")
	raw, err := os.ReadFile(filepath.Join(env.root, untouchedDir, "resourcelist-items.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	items := string(raw[strings.Index(string(raw), "items:\n"):])
	list := func(config string) []byte {
		c, err := os.ReadFile(filepath.Join(env.root, untouchedDir, config))
		if err != nil {
			t.Fatal(err)
		}
		return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n" + items +
			"functionConfig:\n" + regexp.MustCompile(`(?m)^`).ReplaceAllString(strings.TrimSpace(string(c)), "  ") + "\n")
	}
	r := run(t, env.root, nil, list("nothing.yaml"), bin)
	if r.code != 0 || listItems(r.stdout) != items {
		t.Fatalf("items not written as read:\n%s\n%s", r, firstDifference(items, listItems(r.stdout)))
	}
	// indented under "items:", each item is shifted left whole, to the
	// column the writer writes the items at
	wide := strings.Replace(string(list("nothing.yaml")), items, "items:\n"+
		regexp.MustCompile(`(?m)^(.)`).ReplaceAllString(strings.TrimPrefix(items, "items:\n"), "  $1"), 1)
	r = run(t, env.root, nil, []byte(wide), bin)
	if r.code != 0 || listItems(r.stdout) != items {
		t.Fatalf("indented items not shifted whole:\n%s\n%s", r, firstDifference(items, listItems(r.stdout)))
	}
	r = run(t, env.root, nil, list("label-b.yaml"), bin)
	got, want := splitItems(listItems(r.stdout)), splitItems(items)
	if r.code != 0 || len(got) != len(want) {
		t.Fatalf("want %d items:\n%s", len(want), r)
	}
	for i := range want {
		if changed := got[i] != want[i]; changed != (i == 1) || changed && !strings.Contains(got[i], "team: a") {
			t.Errorf("item %d: want it %s, got:\n%s", i, map[bool]string{true: "labelled", false: "as read"}[i == 1], got[i])
		}
	}
	again := run(t, env.root, nil, []byte(r.stdout), bin)
	if again.code != 0 || listItems(again.stdout) != listItems(r.stdout) {
		t.Fatalf("a second run changed the items:\n%s", firstDifference(listItems(r.stdout), listItems(again.stdout)))
	}
}

// listItems is the items of a ResourceList's text, from "items:" up to
// the functionConfig.
func listItems(list string) string {
	from := strings.Index(list, "items:\n")
	to := strings.Index(list, "functionConfig:\n")
	if from < 0 || to < from {
		return ""
	}
	return list[from:to]
}

// splitItems cuts items at each "-" at column 0 (the fixture's items all
// start so).
func splitItems(items string) []string {
	return regexp.MustCompile(`(?m)^- `).Split(items, -1)[1:]
}
