package rlio_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/rlio"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
	"github.com/patchwork-krm/patchwork/pkg/generator"
	"github.com/patchwork-krm/patchwork/pkg/multipatch"
	"github.com/patchwork-krm/patchwork/pkg/podspec"
	"github.com/patchwork-krm/patchwork/pkg/replacement"
)

// The codec must give the bytes kyaml's kio.ByteReadWriter gives, in the
// runner (pkg/fnrun) as it runs the functions. These tests run a function
// through both codecs on the same inputs and compare: output, outcome and
// errors.

// sameAsKyaml runs f on in through both paths and fails on any difference.
func sameAsKyaml(t testing.TB, f fnrun.Function, in []byte, configDir string) {
	t.Helper()
	var fast, ref bytes.Buffer
	var lo, ro fnrun.Outcome
	var lerr, rerr error
	lp := panics(func() { lo, lerr = fnrun.RunResourceListEncoded(f, bytes.NewReader(in), &fast, configDir) })
	rp := panics(func() { ro, rerr = fnrun.RunResourceListKyaml(f, bytes.NewReader(in), &ref, configDir) })
	if lp != rp {
		t.Fatalf("panics differ\nlean:  %v\nkyaml: %v\ninput:\n%s", lp, rp, in)
	}
	if lp != nil {
		// The same panic on both paths is not the I/O's: kyaml panics on
		// a functionConfig that is not a map (fnconfig.PackageDir, checkKind).
		return
	}
	if fmt.Sprint(lerr) != fmt.Sprint(rerr) {
		t.Fatalf("errors differ\nlean:  %v\nkyaml: %v\ninput:\n%s", lerr, rerr, in)
	}
	if lo.Failed != ro.Failed || fmt.Sprint(messages(lo)) != fmt.Sprint(messages(ro)) {
		t.Fatalf("outcomes differ\nlean:  %v %v\nkyaml: %v %v", lo.Failed, messages(lo), ro.Failed, messages(ro))
	}
	if !bytes.Equal(fast.Bytes(), ref.Bytes()) {
		t.Fatalf("output differs from kyaml's\n%s\n--- input ---\n%s", firstDifference(fast.Bytes(), ref.Bytes()), in)
	}
	sameCopied(t, f, in, configDir, ref.Bytes(), lerr)
}

// sameCopied: the run with copy-through (the binaries' run) reads back, item
// by item, as kyaml's output does or as the item was read.
func sameCopied(t testing.TB, f fnrun.Function, in []byte, configDir string, ref []byte, encodedErr error) {
	t.Helper()
	var copied bytes.Buffer
	_, err := fnrun.RunResourceList(f, bytes.NewReader(in), &copied, configDir)
	if fmt.Sprint(err) != fmt.Sprint(encodedErr) {
		t.Fatalf("copy-through's error differs from the encoded run's\ncopied:  %v\nencoded: %v", err, encodedErr)
	}
	if err != nil {
		return
	}
	if !rlio.SameItems(copied.Bytes(), ref, in) {
		t.Fatalf("copy-through reads back differently\n--- copied ---\n%s\n--- kyaml ---\n%s\n--- input ---\n%s", copied.Bytes(), ref, in)
	}
}

// panics runs fn and returns what it panicked with, as a string.
func panics(fn func()) (p any) {
	defer func() {
		if r := recover(); r != nil {
			p = fmt.Sprint(r)
		}
	}()
	fn()
	return nil
}

func messages(o fnrun.Outcome) []string {
	var out []string
	for _, r := range o.Results {
		out = append(out, string(r.Severity)+": "+r.Message)
	}
	return out
}

// firstDifference shows the lines around the first byte that differs.
func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := bytes.LastIndexByte(got[:i], '\n') + 1
	for n := 0; n < 3 && from > 0; n++ {
		from = bytes.LastIndexByte(got[:from-1], '\n') + 1
	}
	clip := func(b []byte) string {
		end := min(len(b), i+300)
		return string(b[min(from, len(b)):end])
	}
	return fmt.Sprintf("at byte %d (fast %d bytes, kyaml %d bytes)\n--- fast ---\n%s\n--- kyaml ---\n%s", i, len(got), len(want), clip(got), clip(want))
}

// goldenDir holds the functions' packages, whose golden cases are inputs.
const goldenDir = "../../pkg/"

var functions = map[string]fnrun.Function{
	"multipatch":  multipatch.Function,
	"podspec":     podspec.Function,
	"replacement": replacement.Function,
	"generator":   generator.Function,
}

// identityFor is the identity pass accepting f's configs.
func identityFor(f fnrun.Function) fnrun.Function {
	id := fnrun.Identity
	id.Kinds = f.Kinds
	return id
}

// goldenLists wraps every golden case's input.yaml and config.yaml as a
// ResourceList, twice: as kpt sends it (written by kyaml, with the index and
// path annotations kpt adds) and as text, each document indented under "- "
// (comments, document markers and all), which is how a hand-made list looks.
func goldenLists(t *testing.T) map[string][]byte {
	t.Helper()
	inputs, err := filepath.Glob(goldenDir + "*/testdata/*/input.yaml")
	if err != nil || len(inputs) < 80 {
		t.Fatalf("golden inputs: %v (%d found)", err, len(inputs))
	}
	lists := map[string][]byte{}
	for _, path := range inputs {
		dir := filepath.Dir(path)
		input, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		config, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
		if err != nil {
			continue
		}
		lists[dir+" (text)"] = textList(input, config)
		if b, ok := kptList(input, config); ok {
			lists[dir+" (kpt)"] = b
		}
	}
	return lists
}

// textList indents each document of a YAML stream under "- ".
func textList(input, config []byte) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for _, doc := range strings.Split(string(input), "\n---\n") {
		doc = strings.TrimPrefix(doc, "---\n")
		if strings.TrimSpace(doc) == "" {
			continue
		}
		b.WriteString(indentUnder(doc, "- "))
	}
	b.WriteString("functionConfig:\n")
	b.WriteString(indentUnder(string(config), "  "))
	return b.Bytes()
}

func indentUnder(doc, first string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(doc, "\n"), "\n") {
		switch {
		case i == 0:
			b.WriteString(first)
		case l != "":
			b.WriteString("  ")
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// kptList writes the resources as kpt does: read with kyaml's reader (which
// adds index annotations) plus a path annotation, wrapped by kyaml's writer.
func kptList(input, config []byte) ([]byte, bool) {
	items, err := (&kio.ByteReader{Reader: bytes.NewReader(input), PreserveSeqIndent: true}).Read()
	if err != nil {
		return nil, false
	}
	for i, it := range items {
		p := fmt.Sprintf("dir/file-%d.yaml", i%3)
		if it.PipeE(yaml.SetAnnotation("internal.config.kubernetes.io/path", p)) != nil ||
			it.PipeE(yaml.SetAnnotation("config.kubernetes.io/path", p)) != nil {
			return nil, false
		}
	}
	fc, err := yaml.Parse(string(config))
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	w := kio.ByteWriter{Writer: &b, KeepReaderAnnotations: true, FunctionConfig: fc,
		WrappingKind: kio.ResourceListKind, WrappingAPIVersion: kio.ResourceListAPIVersion}
	if w.Write(items) != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// TestGoldenInputsSameAsKyaml: every golden input, through the identity pass
// and through its own function (so transformed items are written too).
func TestGoldenInputsSameAsKyaml(t *testing.T) {
	for name, in := range goldenLists(t) {
		pkg, _, _ := strings.Cut(strings.TrimPrefix(filepath.ToSlash(name), goldenDir), "/")
		f, ok := functions[pkg]
		if !ok {
			t.Fatalf("no function for %s", name)
		}
		dir := strings.Fields(name)[0]
		t.Run(name, func(t *testing.T) {
			sameAsKyaml(t, identityFor(f), in, dir)
			sameAsKyaml(t, f, in, dir)
		})
	}
}

// trickyLists are hand-made ResourceLists with what YAML allows and kyaml
// handles in its own way.
var trickyLists = map[string]string{
	"comments": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- # head of the first item
  apiVersion: v1
  kind: ConfigMap # line
  metadata:
    name: a
    # before annotations
    annotations:
      x: "1" # x
  data:
    k: v
    # foot of data

- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
  # between metadata and data
  data: {k: v} # flow
functionConfig:
  # head of the config
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"comments-between-items": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
# before the first item
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
# between items

- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
  # closing the second item
# after the items
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"anchors-within-an-item": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
    labels: &labels
      app: a
  data:
    copy: *labels
    x: &x hello
    y: *x
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
    labels: *labels
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
  data:
    shared: *x
`,
	"anchors-in-one-item": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
    labels: &labels
      app: a
  data:
    copy: *labels
    x: &x hello
    y: *x
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
    labels: &labels
      app: b
    annotations: *labels
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"multi-line-strings": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
  data:
    literal: |
      line one

      line three
    keep: |+
      kept


    strip: |-
      stripped
    folded: >
      folded text
      continues

    indented: |2
        two more
    plain: this plain scalar
      continues on the next line
    quoted: "double quoted
      continues"
    single: 'it''s'
    escapes: "tab\there\nnewline \u00e9 \U0001F600"
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: last-keeps
  data:
    keep: |+
      kept at the end

functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
  data:
    keep: |+
      the config keeps too

`,
	"flow-styles": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {x: y}}, data: {k: v}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b,
    annotations: {a: b}}
  data:
    list: [1, 2, three, {four: 4}]
    empty: {}
    none: []
functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}
`,
	"wide-sequences": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
  - apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: a
    spec:
      template:
        spec:
          containers:
            - name: c
              args:
                - one
                - two
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: b
functionConfig:
    apiVersion: v1
    kind: ConfigMap
    metadata:
        name: c
`,
	"document-start-marker": `---
apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"document-end-marker": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
...
`,
	"two-documents": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
`,
	"separator-inside-a-literal": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
  data:
    stream: |
      a: 1
      ---
      b: 2
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"unicode-and-long-lines": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: ünïcödé-名前
    annotations:
      emoji: "😀 ok"
      long: ` + strings.Repeat("word ", 200) + `end
      longquoted: "` + strings.Repeat("quoted words ", 100) + `"
  data:
    ` + strings.Repeat("k", 300) + `: v
    json: '{"a": [1, 2, 3], "b": {"c": "d"}}'
    bidi: "\u202e"
    control: "\x07bell"
    nel: "a\u0085b"
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"empty-items": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"no-items-key": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"no-function-config": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
`,
	"results-present": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
results:
- message: from an earlier function
  severity: warning
  resourceRef:
    apiVersion: v1
    kind: ConfigMap
    name: a
`,
	"results-before-items": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
results:
- message: earlier
  severity: info
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
    annotations: {}
- apiVersion: v1
  kind: ConfigMap
  metadata: {}
`,
	"crlf": "apiVersion: config.kubernetes.io/v1\r\nkind: ResourceList\r\nitems:\r\n- apiVersion: v1\r\n  kind: ConfigMap\r\n  metadata:\r\n    name: a\r\nfunctionConfig:\r\n  apiVersion: v1\r\n  kind: ConfigMap\r\n  metadata:\r\n    name: c\r\n",
	"not-a-resource-list": `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
`,
	"malformed": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: [a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"item-not-a-map": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- just a string
-
- - nested
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"tags-and-odd-scalars": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: !!str 123
    labels:
      "quoted key": yes
      ? complex
      : key
  data:
    octal: 0755
    float: 1e3
    null: ~
    bool: on
    time: 12:30:45
    binary: !!binary aGVsbG8=
    custom: !mytag value
functionConfig:
  apiVersion: "v1"
  kind: 'ConfigMap'
  metadata:
    name: c
`,
	"legacy-annotations": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
    annotations:
      config.kubernetes.io/path: a.yaml
      config.kubernetes.io/index: '0'
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: b
    annotations:
      internal.config.kubernetes.io/path: b.yaml
      internal.config.kubernetes.io/index: '1'
      internal.config.kubernetes.io/seqindent: wide
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
`,
	"indented-items-key": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: c
  items:
  - not: an item
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
`,
	"quoted-continuation-at-column-zero": "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    q: \"first\n- second\"\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n",
	"no-trailing-newline":                "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a",
}

func TestTrickyListsSameAsKyaml(t *testing.T) {
	for name, in := range trickyLists {
		t.Run(name, func(t *testing.T) {
			sameAsKyaml(t, fnrun.Identity, []byte(in), "")
			failing := fnrun.Identity
			failing.Run = func(r *fnrun.Request) error {
				for _, it := range r.Items {
					_ = it.PipeE(yaml.SetLabel("touched", "yes"))
				}
				return fmt.Errorf("failing on purpose")
			}
			sameAsKyaml(t, failing, []byte(in), "")
		})
	}
}

// generatedList is a large list of the kind kpt sends (compare
// pkg/multipatch's benchmark list).
func generatedList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%[1]d
    namespace: ns-%[2]d
    labels:
      app: app-%[1]d
    annotations:
      config.kubernetes.io/path: apps/app-%[1]d.yaml
      internal.config.kubernetes.io/path: apps/app-%[1]d.yaml
      config.kubernetes.io/index: '0'
  spec:
    template:
      spec:
        containers:
        - name: app
          image: example/app:%[1]d # pinned
          args: ["--port", "8080"]
          env:
          - name: CONFIG
            value: |
              {"id": %[1]d,
               "name": "app-%[1]d"}
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app-%[1]d
  data:
    mode: fast
`, i, i%7)
	}
	b.WriteString("functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n")
	return []byte(b.String())
}

func TestGeneratedListsSameAsKyaml(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 129, 700, 1500} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			sameAsKyaml(t, fnrun.Identity, generatedList(n), "")
		})
	}
}

// FuzzListIO: any input gives the same bytes, outcome and error through the
// fast path and through kyaml's.
func FuzzListIO(f *testing.F) {
	for _, in := range trickyLists {
		f.Add([]byte(in))
	}
	f.Add(generatedList(3))
	f.Fuzz(func(t *testing.T, in []byte) {
		sameAsKyaml(t, fnrun.Identity, in, "")
	})
}

// FuzzListIOItem: a document placed as items (twice, between ordinary ones)
// and as the functionConfig of a ResourceList gives the same bytes through
// both paths; most of FuzzListIO's inputs are not ResourceLists at all.
func FuzzListIOItem(f *testing.F) {
	docs, _ := filepath.Glob(goldenDir + "*/testdata/*/input.yaml")
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		for _, doc := range strings.Split(string(b), "\n---\n") {
			f.Add([]byte(doc))
		}
	}
	f.Add([]byte("a: |+\n  kept\n\n"))
	f.Add([]byte("# head\na: &x 1\nb: *x # line\n# foot\n"))
	f.Add([]byte("{a: [1, 2], b: {c: d}}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		ordinary := "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: x\n"
		var b strings.Builder
		b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
		b.WriteString(ordinary + indentUnder(string(doc), "- ") + ordinary + indentUnder(string(doc), "- "))
		b.WriteString("functionConfig:\n" + indentUnder(string(doc), "  "))
		sameAsKyaml(t, fnrun.Identity, []byte(b.String()), "")
	})
}

// TestItemRunsSameAsKyaml: lists of 1 to 300 items (across the writer's
// per-worker batches), mixing flow and block items, ending in a block scalar
// that keeps its trailing line breaks, with and without a functionConfig
// after the items.
func TestItemRunsSameAsKyaml(t *testing.T) {
	for _, n := range []int{1, 15, 16, 17, 40, 300} {
		for _, every := range []int{0, 7, 33} {
			var b strings.Builder
			b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
			for i := 0; i < n; i++ {
				if every > 0 && i%every == every-1 {
					fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: plain-%d\n  data:\n    k: |+\n      kept\n\n", i)
					continue
				}
				fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: flow-%d}\n  data:\n    k: |+\n      kept\n\n", i)
			}
			t.Run(fmt.Sprintf("%d-every-%d", n, every), func(t *testing.T) {
				sameAsKyaml(t, fnrun.Identity, []byte(b.String()), "")
				in := strings.Replace(b.String(), "items:\n", "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\nitems:\n", 1)
				sameAsKyaml(t, fnrun.Identity, []byte(in), "")
			})
		}
	}
}

// TestCorpusSameAsKyaml: real manifests as kpt sends them (two copies of
// the corpus, CRDs included), through the identity pass and through
// multi-patch and podspec-patch changing every workload: the same bytes as
// kyaml's ByteReadWriter. Skipped where the corpus is not (CI's fresh
// clone); internal/rlio's TestRealShapesSameAsKyaml holds the same shapes.
func TestCorpusSameAsKyaml(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus list takes kpt fn source")
	}
	configs := map[string]string{
		"multipatch": "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata:\n  name: c\npatches:\n" +
			"- target: {kind: Deployment}\n  patch: |\n    spec:\n      revisionHistoryLimit: 3\n",
		"podspec": "apiVersion: fn.patchwork.dev/v1alpha1\nkind: PodSpecPatch\nmetadata:\n  name: c\npatchesPodSpec:\n" +
			"- patch: |\n    containers:\n    - name: envoy\n      image: envoy:1\n",
	}
	for name, config := range configs {
		t.Run(name, func(t *testing.T) {
			in := fnruntest.CorpusList(t, 2, config)
			sameAsKyaml(t, identityFor(functions[name]), in, "")
			sameAsKyaml(t, functions[name], in, "")
		})
	}
}
