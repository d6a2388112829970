package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// A fixture is one case directory, e2e/testdata/<function>/<case>/:
//
//	config.yaml             the function config (kpt --fn-config; the kustomize
//	                        transformer or generator); other files beside it are
//	                        files the config refers to
//	package/                the package the function runs on
//	.expected/diff.patch    `diff -ruN` from package/ to the package after the
//	                        run; absent when nothing may change
//	.expected/results.yaml  the results kpt reports, in order; absent when none.
//	                        A result of severity error makes this a failing
//	                        case: kpt must exit non-zero and change no file.
//	.expected/harness.yaml  optional, how the clients run the case (harness)
//
// UPDATE_GOLDEN=1 makes the kpt --exec test write diff.patch and results.yaml
// from what happened: read them before committing.
type fixture struct {
	function, name string
	dir            string
	diff           string // expected diff, "" for none
	results        []any  // expected results, nil for none
	harness        harness
}

// harness says how the clients run a case.
type harness struct {
	// Kustomize is the kustomization field the config goes under:
	// "transformers" (the default) or "generators".
	Kustomize string `json:"kustomize,omitempty"`
	// Skip names the clients ("image", "kustomize") that cannot run this
	// case, each with the reason, which the test reports.
	Skip map[string]string `json:"skip,omitempty"`
}

var update = os.Getenv("UPDATE_GOLDEN") == "1"

func testdata() string { return filepath.Join(env.root, "e2e", "testdata") }

func (f *fixture) config() string   { return filepath.Join(f.dir, "config.yaml") }
func (f *fixture) pkg() string      { return filepath.Join(f.dir, "package") }
func (f *fixture) expected() string { return filepath.Join(f.dir, ".expected") }

// failing reports whether the case expects an error result.
func (f *fixture) failing() bool {
	for _, r := range f.results {
		if m, ok := r.(map[string]any); ok && m["severity"] == "error" {
			return true
		}
	}
	return false
}

func (f *fixture) skip(t *testing.T, client string) {
	t.Helper()
	if why, ok := f.harness.Skip[client]; ok {
		t.Skipf("%s does not run this case: %s", client, why)
	}
}

// errorMessages are the messages of the expected error results.
func (f *fixture) errorMessages() []string {
	var msgs []string
	for _, r := range f.results {
		if m, ok := r.(map[string]any); ok && m["severity"] == "error" {
			msgs = append(msgs, fmt.Sprint(m["message"]))
		}
	}
	return msgs
}

// fixtureFunctions lists the function directories under testdata/.
func fixtureFunctions(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(testdata())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		// testdata/fuzz is go test's corpus of this package's fuzz
		// targets (FuzzAmplify): -fuzz writes what it finds there.
		if e.IsDir() && e.Name() != "fuzz" {
			names = append(names, e.Name())
		}
	}
	return names
}

// loadFixtures reads and checks every case of a function.
func loadFixtures(t *testing.T, function string) []*fixture {
	t.Helper()
	dir := filepath.Join(testdata(), function)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []*fixture
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("%s: stray file %s: a function's testdata holds only case directories", dir, e.Name())
			continue
		}
		f, err := loadFixture(function, filepath.Join(dir, e.Name()))
		if err != nil {
			t.Errorf("%s/%s: %v", function, e.Name(), err)
			continue
		}
		cases = append(cases, f)
	}
	if t.Failed() {
		t.FailNow()
	}
	return cases
}

func loadFixture(function, dir string) (*fixture, error) {
	f := &fixture{function: function, name: filepath.Base(dir), dir: dir}
	if _, err := os.Stat(f.config()); err != nil {
		return nil, fmt.Errorf("no config.yaml: %w", err)
	}
	if st, err := os.Stat(f.pkg()); err != nil || !st.IsDir() {
		return nil, errors.New("no package/ directory")
	}
	if _, err := os.Stat(filepath.Join(f.pkg(), "Kptfile")); err == nil {
		// kpt renders every nested Kptfile it finds, .krmignore or not, so a
		// Kptfile here would turn the case into a package with a pipeline of
		// its own (examples/ is where packages with a Kptfile live).
		return nil, errors.New("package/ must not hold a Kptfile")
	}
	entries, err := os.ReadDir(f.expected())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		path := filepath.Join(f.expected(), e.Name())
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		switch e.Name() {
		case "diff.patch":
			f.diff = string(raw)
		case "results.yaml":
			if err := yaml.UnmarshalStrict(raw, &f.results); err != nil {
				return nil, fmt.Errorf(".expected/results.yaml: %w", err)
			}
		case "harness.yaml":
			if err := yaml.UnmarshalStrict(raw, &f.harness); err != nil {
				return nil, fmt.Errorf(".expected/harness.yaml: %w", err)
			}
		default:
			return nil, fmt.Errorf(".expected/%s: unknown file (diff.patch, results.yaml, harness.yaml)", e.Name())
		}
	}
	switch f.harness.Kustomize {
	case "":
		f.harness.Kustomize = "transformers"
	case "transformers", "generators":
	default:
		return nil, fmt.Errorf(".expected/harness.yaml: kustomize: %q, want transformers or generators", f.harness.Kustomize)
	}
	for client := range f.harness.Skip {
		if client != "image" && client != "kustomize" {
			return nil, fmt.Errorf(".expected/harness.yaml: skip: %q: only image and kustomize may be skipped", client)
		}
	}
	if f.failing() && f.diff != "" {
		return nil, errors.New("a failing case changes no file: remove .expected/diff.patch")
	}
	return f, nil
}

// forEachCase runs body for every case of every function that has fixtures.
func forEachCase(t *testing.T, body func(t *testing.T, f *fixture, bin string)) {
	for _, function := range fixtureFunctions(t) {
		t.Run(function, func(t *testing.T) {
			bin := requireFunction(t, function)
			for _, f := range loadFixtures(t, function) {
				t.Run(f.name, func(t *testing.T) { body(t, f, bin) })
			}
		})
	}
}

// TestFixtures checks that every function is covered: a functions/<name>
// directory needs fixtures with at least one succeeding and one failing case,
// and every fixture directory must name a real or planned function.
func TestFixtures(t *testing.T) {
	planned := map[string]bool{}
	for _, n := range demoFunctions(t) {
		planned[n] = true
	}
	for _, function := range fixtureFunctions(t) {
		if !present(function) && !planned[function] {
			t.Errorf("testdata/%s: no functions/%s and not in the demo pipeline: a typo?", function, function)
		}
	}
	for _, function := range knownFunctions(t) {
		t.Run(function, func(t *testing.T) {
			requireFunction(t, function)
			if _, err := os.Stat(filepath.Join(testdata(), function)); err != nil {
				t.Fatalf("functions/%s exists but e2e/testdata/%s has no cases", function, function)
			}
			var ok, failing int
			for _, f := range loadFixtures(t, function) {
				if f.failing() {
					failing++
				} else {
					ok++
				}
			}
			if ok == 0 || failing == 0 {
				t.Errorf("e2e/testdata/%s: %d succeeding and %d failing cases; want at least one of each", function, ok, failing)
			}
		})
	}
}

// copyDir copies a directory tree of regular files.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, raw, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// diffTrees returns `diff -ruN a b` run in dir, without the timestamps, so
// that it reads like a patch: --- a/deploy.yaml, +++ b/deploy.yaml.
func diffTrees(t *testing.T, dir, a, b string) string {
	t.Helper()
	r := run(t, dir, []string{"LC_ALL=C"}, nil, "diff", "-ruN", a, b)
	if r.code > 1 {
		t.Fatalf("diff failed:\n%s", r)
	}
	lines := strings.SplitAfter(r.stdout, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ ") {
			if tab := strings.IndexByte(l, '\t'); tab >= 0 {
				lines[i] = l[:tab] + "\n"
			}
		}
	}
	return strings.Join(lines, "")
}

// kptResults reads the results of every function from kpt's --results-dir.
func kptResults(t *testing.T, dir string) []any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "results.yaml"))
	if err != nil {
		t.Fatalf("kpt wrote no results: %v", err)
	}
	var list struct {
		Items []struct {
			Results []any `json:"results"`
		} `json:"items"`
	}
	if err := yaml.Unmarshal(raw, &list); err != nil {
		t.Fatalf("kpt results: %v\n%s", err, raw)
	}
	var all []any
	for _, it := range list.Items {
		all = append(all, it.Results...)
	}
	return all
}

// checkResults compares results as data: every field counts.
func checkResults(t *testing.T, want, got []any) {
	t.Helper()
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("results differ\n--- want (.expected/results.yaml)\n%s--- got\n%s", toYAML(want), toYAML(got))
	}
}

// toYAML prints data for people: maps in the order a result reads best
// (severity, message, resourceRef, field, file), other keys sorted after,
// long strings unwrapped.
func toYAML(v any) string {
	if rv := reflect.ValueOf(v); v == nil || (rv.Kind() == reflect.Map || rv.Kind() == reflect.Slice) && rv.Len() == 0 {
		return "(none)\n"
	}
	node, err := orderedNode(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	out, err := kyaml.NewRNode(node).String()
	if err != nil {
		return fmt.Sprint(v)
	}
	return out
}

var keyOrder = []string{"severity", "message", "resourceRef", "field", "file", "apiVersion", "kind", "name", "namespace", "path"}

func orderedNode(v any) (*kyaml.Node, error) {
	switch v := v.(type) {
	case map[string]any:
		node := &kyaml.Node{Kind: kyaml.MappingNode}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		rank := func(k string) int {
			if i := slices.Index(keyOrder, k); i >= 0 {
				return i
			}
			return len(keyOrder)
		}
		sort.Slice(keys, func(i, j int) bool {
			if ri, rj := rank(keys[i]), rank(keys[j]); ri != rj {
				return ri < rj
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			val, err := orderedNode(v[k])
			if err != nil {
				return nil, err
			}
			node.Content = append(node.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Value: k}, val)
		}
		return node, nil
	case []any:
		node := &kyaml.Node{Kind: kyaml.SequenceNode}
		for _, e := range v {
			val, err := orderedNode(e)
			if err != nil {
				return nil, err
			}
			node.Content = append(node.Content, val)
		}
		return node, nil
	default:
		node := &kyaml.Node{}
		return node, node.Encode(v)
	}
}

// writeExpected records what happened as the case's expectations.
func (f *fixture) writeExpected(t *testing.T, diff string, results []any) {
	t.Helper()
	write := func(name string, data []byte) {
		path := filepath.Join(f.expected(), name)
		if len(data) == 0 {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			return
		}
		if err := os.MkdirAll(f.expected(), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("diff.patch", []byte(diff))
	var res []byte
	if len(results) > 0 {
		res = []byte(toYAML(results))
	}
	write("results.yaml", res)
	t.Logf("UPDATE_GOLDEN: wrote %s: review it", f.expected())
}

// yamlFiles lists the .yaml/.yml files below dir, relative, sorted.
func yamlFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(path); !d.IsDir() && (ext == ".yaml" || ext == ".yml") {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// splitDocs parses a YAML stream into objects.
func splitDocs(t *testing.T, stream []byte) []map[string]any {
	t.Helper()
	nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(stream), OmitReaderAnnotations: true}).Read()
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, stream)
	}
	// Decoded like every other object here (sigs.k8s.io/yaml: JSON types),
	// so that comparisons see the same types on both sides.
	var objs []map[string]any
	for _, n := range nodes {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(n.MustString()), &m); err != nil {
			t.Fatalf("parse: %v\n%s", err, n.MustString())
		}
		objs = append(objs, m)
	}
	return objs
}
