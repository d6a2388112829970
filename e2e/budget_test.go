package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The work budget (issue 28, items 9-12): each class of config that asks
// for more work than it says, run through its binary with the address
// space limited to about 3 GB, as a small container would be. Each must
// fail within the time limit, exit 1 and say why under the entry that
// asked: never hang, never end in a Go runtime crash (an out-of-memory
// "fatal error" with a goroutine dump, exit 2).

// memoryLimit is ulimit -v's argument, in KiB.
const memoryLimit = "3000000"

// amplifier is one class of amplifying config: the function, its config,
// the resources it runs on, and what its error must say.
type amplifier struct {
	name, function string
	config, input  string
	files          map[string]string // beside the config
	want           string
}

func TestWorkBudget(t *testing.T) {
	for _, a := range amplifiers() {
		t.Run(a.name, func(t *testing.T) {
			r := a.run(t)
			if r.code != 1 || !strings.Contains(r.stderr, a.want) {
				t.Errorf("want exit 1 saying %q\n%.3000s", a.want, r)
			}
		})
	}
}

func amplifiers() []amplifier {
	return []amplifier{
		{
			name: "pattern-target-name", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap, name: \"" + sixtyAlternatives() + "\"}\n  patch: |\n    data: {x: y}\n"),
			input:  longNames(), want: "patches[0]: target.name: the regular expression compiles to 60103 instructions",
		},
		{
			name: "pattern-matcher", function: "structured-replacement",
			config: replacement("- source: {kind: ConfigMap, name: src, fieldPath: data.v}\n  targets:\n  - select: {kind: ConfigMap, name: cm}\n" +
				"    fieldPaths: [\"spec.items.[name=" + sixtyAlternatives() + "].x\"]\n"),
			input: longNames(), want: "the regular expression compiles to 60103 instructions",
		},
		{
			name: "json-patch-copies", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap}\n  type: json6902\n  patch: |\n" + copies("/data", "/data/x%d")),
			input:  configMap("cm", `config.json: '{"a": [1, 2, 3, 4, 5, 6, 7, 8]}'`),
			want:   "patches[0]: v1 ConfigMap cm: the operations' copies: the run would produce more than 32Mi bytes",
		},
		{
			name: "embedded-json-patch-copies", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap}\n  embedded: data.config\\.json\n  type: json6902\n  patch: |\n" + copies("/a", "/a/-")),
			input:  configMap("cm", `config.json: '{"a": [1, 2, 3, 4, 5, 6, 7, 8]}'`),
			want:   "patches[0]: v1 ConfigMap cm: data.config\\.json: the operations' copies: the run would produce more than 32Mi bytes",
		},
		{
			name: "toml-deep-header", function: "merge-values-generator",
			config: "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: deep\n" +
				"configMapGenerator:\n- name: cm\n  behavior: merge\n  mergeValues:\n  - key: app.toml\n    format: toml\n  files: [app.toml=deep.toml]\n",
			files: map[string]string{"deep.toml": "[" + strings.TrimSuffix(strings.Repeat("a.", 50000), ".") + "]\nx = 1\n"},
			input: configMap("cm", "app.toml: |\n    [b]\n    y = 2"),
			want:  "configMapGenerator[0].mergeValues[0]: key \"app.toml\" (from files[0], file deep.toml): the overlay value nests tables more than 200 deep",
		},
		{
			name: "template-3000", function: "structured-replacement",
			config: template(3000), input: bigSource(),
			want: "replacements[0].template: the run would produce more than 32Mi bytes",
		},
		{
			name: "template-20000", function: "structured-replacement",
			config: template(20000), input: bigSource(),
			want: "replacements[0].template: the run would produce more than 32Mi bytes",
		},
		{
			name: "patch-alias-bomb", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap}\n  patch: |\n" + indent(aliasBomb(10, 7), "    ")),
			input:  configMap("cm", "a: \"1\""),
			want:   "patches[0]: v1 ConfigMap cm: data.l6[3][8][5][5][8][1]: YAML aliases expand to too many nodes: the run would produce more than 1Mi nodes",
		},
		{
			name: "aliases-of-a-large-value", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap}\n  type: json6902\n  patch: |\n    - {op: add, path: /data/b, value: \"1\"}\n"),
			input:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: &a " + strings.Repeat("x", 100_000) + "\nlist:\n" + strings.Repeat("- *a\n", 9990),
			want:   "patches[0]: v1 ConfigMap cm: line 343: YAML aliases expand to too many nodes: the run would produce more than 32Mi bytes",
		},
		{
			name: "wildcards-over-an-alias-bomb", function: "multi-patch",
			config: multiPatch("- target: {kind: ConfigMap, name: cm}\n  embedded: \"data.l9.*.*.*.*.*.*.*.*.*\"\n  patch: |\n    a: 1\n"),
			input:  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n" + aliasBomb(10, 9),
			want:   "patches[0]: v1 ConfigMap cm: data.l9.*.*.*.*.*.*.*.*.*: the run would produce more than 1Mi nodes",
		},
		{
			// a path is created as deep as it is long, and block YAML indents
			// each level: 100,000 segments wrote gigabytes for minutes
			name: "path-of-100000-segments", function: "structured-replacement",
			config: replacement("- source: {kind: ConfigMap, name: src, fieldPath: data.v}\n  targets:\n  - select: {kind: ConfigMap, name: dst}\n" +
				"    fieldPaths: [data" + strings.Repeat(".a", 100_000) + "]\n    options: {create: true}\n"),
			input: configMap("src", "v: x") + "---\n" + configMap("dst", "x: \"1\""),
			want:  "replacements[0].targets[0].fieldPaths[0]: field path \"data.a.a.a",
		},
		{
			name: "replacement-copies-of-copies", function: "structured-replacement",
			config: doublingReplacements(30), input: configMap("cm", "a0: {x: \"0123456789\"}"),
			want: "the run would produce more than",
		},
	}
}

// run writes the amplifier's files into a new directory and runs its
// function there, standalone, under the memory limit.
func (a amplifier) run(t *testing.T) result {
	t.Helper()
	bin := requireFunction(t, a.function)
	dir := t.TempDir()
	files := map[string]string{"config.yaml": a.config, "input.yaml": a.input}
	for name, text := range a.files {
		files[name] = text
	}
	for name, text := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	r := runLimited(t, dir, "sh", "-c", "ulimit -v "+memoryLimit+" && exec \"$0\" \"$@\"", bin, "config.yaml", "input.yaml")
	if crashed(r) {
		t.Fatalf("the run crashed\n%.3000s", r)
	}
	return r
}

// crashed reports whether a run ended other than by exiting 0 or 1 with
// its own messages: a Go runtime crash (out of memory, a stack overflow)
// exits 2 with a goroutine dump.
func crashed(r result) bool {
	for _, s := range []string{"fatal error:", "goroutine ", "runtime: ", "panic:"} {
		if strings.Contains(r.stderr, s) {
			return true
		}
	}
	return r.code != 0 && r.code != 1
}

func multiPatch(patches string) string {
	return "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MultiPatch\nmetadata:\n  name: amplify\npatches:\n" + patches
}

func replacement(replacements string) string {
	return "apiVersion: fn.patchwork.dev/v1alpha1\nkind: StructuredReplacement\nmetadata:\n  name: amplify\nreplacements:\n" + replacements
}

func configMap(name, data string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  %s\n", name, data)
}

// sixtyAlternatives is a 761-byte pattern of 60103 instructions.
func sixtyAlternatives() string {
	alts := make([]string, 60)
	for i := range alts {
		alts[i] = fmt.Sprintf("[a-%c]{1000}", 'z'-i%26) + strings.Repeat("a", i/26)
	}
	return strings.Join(alts, "|")
}

// longNames is some 40 KB that keeps every alternative of sixtyAlternatives
// alive and matches none: 40 runs of 999 letters.
func longNames() string {
	long := strings.Repeat(strings.Repeat("a", 999)+"!", 40)
	return configMap("src", "v: new") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + long[:250] + "\nspec:\n  items:\n  - name: \"" + long + "\"\n" +
		"---\n" + configMap("cm", "k: v") + "spec:\n  items:\n  - name: \"" + long + "\"\n"
}

// copies is forty JSON patch copies from from to the paths to makes (%d:
// the copy's number), each doubling what from holds.
func copies(from, to string) string {
	var b strings.Builder
	for i := range 40 {
		path := to
		if strings.Contains(to, "%d") {
			path = fmt.Sprintf(to, i)
		}
		fmt.Fprintf(&b, "    - {op: copy, from: %s, path: %s}\n", from, path)
	}
	return b.String()
}

// template repeats ${value} of a 100 KB source n times.
func template(n int) string {
	return replacement("- source: {kind: ConfigMap, name: src, fieldPath: data.v}\n  template: \"" + strings.Repeat("${value}", n) + "\"\n" +
		"  targets:\n  - select: {kind: ConfigMap, name: dst}\n    fieldPaths: [data.x]\n")
}

func bigSource() string {
	return configMap("src", "v: "+strings.Repeat("v", 100_000)) + "---\n" + configMap("dst", "x: \"1\"")
}

// aliasBomb is YAML of levels anchors, each a list of width aliases of the
// one before: width^levels nodes.
func aliasBomb(width, levels int) string {
	var b strings.Builder
	b.WriteString("data:\n  l0: &l0 [x]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), width), ","))
	}
	return b.String()
}

// doublingReplacements copies data.a<i> into data.a<i+1> twice over, n
// times: the last is 2^n copies of the first.
func doublingReplacements(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "- source: {kind: ConfigMap, name: cm, fieldPath: data.a%d}\n  targets:\n  - select: {kind: ConfigMap, name: cm}\n"+
			"    fieldPaths: [data.a%d.l, data.a%d.r]\n    options: {create: true}\n", i, i+1, i+1)
	}
	return replacement(b.String())
}

// FuzzAmplify runs random amplifying configs through the binaries under
// the memory limit: JSON patch copies, alias bombs in patches and in
// resources, templates, replacements copying copies, deep TOML, large
// patterns, one patch times many resources, each sized by the fuzzer. None
// may crash or run past the time limit; exit 0 or 1 are both fine (within
// the budget the work is done). `go test` runs the seeds, one per class;
// `go test -run XXX -fuzz FuzzAmplify -parallel 1 ./e2e/` searches, on a
// quiet machine: the fuzzer calls an input that runs ten seconds (a run
// that works up to its limit takes a few) hung.
func FuzzAmplify(f *testing.F) {
	for kind := range byte(len(amplifierKinds)) {
		f.Add(kind, byte(39), byte(9+kind), kind)
	}
	f.Fuzz(func(t *testing.T, kind, x, y, z byte) {
		a := amplifierKinds[int(kind)%len(amplifierKinds)](int(x), int(y), int(z))
		r := a.run(t)
		if r.code != 0 && r.code != 1 {
			t.Fatalf("exit %d\n%.3000s", r.code, r)
		}
	})
}

// amplifierKinds make an amplifying config from three numbers.
var amplifierKinds = []func(x, y, z int) amplifier{
	// JSON patch copies: x of them, doubling a map, a list or the whole
	// document, in the resource (z even) or in a string
	func(x, y, z int) amplifier {
		pairs := [][2]string{{"/data", "/data/x%d"}, {`""`, "/x%d"}, {"/metadata", "/metadata/labels"}}
		patch := "- target: {kind: ConfigMap}\n  type: json6902\n"
		if z%2 == 1 {
			pairs = [][2]string{{"/a", "/a/-"}, {`""`, "/x%d"}, {"/a", "/b%d"}}
			patch += "  embedded: data.config\\.json\n"
		}
		p := pairs[y%3]
		ops := strings.Join(strings.SplitAfter(copies(p[0], p[1]), "\n")[:1+x%40], "")
		return amplifier{function: "multi-patch", config: multiPatch(patch + "  patch: |\n" + ops),
			input: configMap("cm", `config.json: '{"a": [1, 2, 3, 4, 5, 6, 7, 8]}'`)}
	},
	// an alias bomb in a strategic or merge patch
	func(x, y, z int) amplifier {
		typ := [2]string{"strategic", "merge"}[z%2]
		return amplifier{function: "multi-patch", input: configMap("cm", "a: \"1\""),
			config: multiPatch("- target: {kind: ConfigMap}\n  type: " + typ + "\n  patch: |\n" + indent(aliasBomb(2+x%15, 1+y%12), "    "))}
	},
	// an alias bomb in a resource, a patch reaching into it
	func(x, y, z int) amplifier {
		levels := 1 + y%12
		input := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n" + aliasBomb(2+x%15, levels) + "  top:\n    <<: {k: v}\n    all: *l" + fmt.Sprint(levels) + "\n"
		return amplifier{function: "multi-patch", input: input,
			config: multiPatch(fmt.Sprintf("- target: {kind: ConfigMap}\n  patch: |\n    data: {l%d: [z], top: {k: w}}\n", z%(levels+1)))}
	},
	// a template repeating a source of z KiB x*y times
	func(x, y, z int) amplifier {
		input := configMap("src", "v: "+strings.Repeat("v", 1024*(1+z%128))) + "---\n" + configMap("dst", "x: \"1\"")
		return amplifier{function: "structured-replacement", config: template(1 + x*y), input: input}
	},
	// replacements copying copies: x rules, each writing y places
	func(x, y, z int) amplifier {
		var b strings.Builder
		for i := range 1 + x%40 {
			paths := make([]string, 1+y%4)
			for k := range paths {
				paths[k] = fmt.Sprintf("data.a%d.p%d", i+1, k)
			}
			fmt.Fprintf(&b, "- source: {kind: ConfigMap, name: cm, fieldPath: data.a%d}\n  targets:\n  - select: {kind: ConfigMap}\n"+
				"    fieldPaths: [%s]\n    options: {create: true}\n", i, strings.Join(paths, ", "))
		}
		input := configMap("cm", "a0: {x: \""+strings.Repeat("x", 1+z*8)+"\"}")
		return amplifier{function: "structured-replacement", config: replacement(b.String()), input: input}
	},
	// a TOML header of x*y dotted parts, in the base or the overlay
	func(x, y, z int) amplifier {
		header := "[" + strings.TrimSuffix(strings.Repeat("a.", 1+x*y), ".") + "]\nx = 1\n"
		base, overlay := "[b]\ny = 2\n", header
		if z%2 == 1 {
			base, overlay = header, "[b]\ny = 2\n"
		}
		config := "apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata:\n  name: deep\n" +
			"configMapGenerator:\n- name: cm\n  behavior: merge\n  mergeValues:\n  - key: app.toml\n    format: toml\n  files: [app.toml=over.toml]\n"
		return amplifier{function: "merge-values-generator", config: config, files: map[string]string{"over.toml": overlay},
			input: configMap("cm", "app.toml: |\n"+indent(base, "    "))}
	},
	// a pattern of y alternatives repeating a class x*4 times, where a
	// target name, a matcher or a container name is
	func(x, y, z int) amplifier {
		alts := make([]string, 1+y%80)
		for i := range alts {
			alts[i] = fmt.Sprintf("[a-%c]{%d}", 'z'-i%26, 1+x*4%1000) + strings.Repeat("a", i/26)
		}
		pattern := strings.Join(alts, "|")
		switch z % 3 {
		case 0:
			return amplifier{function: "multi-patch", input: longNames(),
				config: multiPatch("- target: {kind: ConfigMap, name: \"" + pattern + "\"}\n  onNoMatch: ignore\n  patch: |\n    data: {x: y}\n")}
		case 1:
			return amplifier{function: "structured-replacement", input: longNames(),
				config: replacement("- source: {kind: ConfigMap, name: src, fieldPath: data.v}\n  targets:\n  - select: {kind: ConfigMap, name: cm}\n" +
					"    fieldPaths: [\"spec.items.[name=" + pattern + "].x\"]\n")}
		}
		config := "apiVersion: fn.patchwork.dev/v1alpha1\nkind: PodSpecPatch\nmetadata:\n  name: names\npatchesPodSpec:\n" +
			"- containerNames: \"" + pattern + "\"\n  containerPatch: |\n    imagePullPolicy: Always\n"
		input := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n" +
			"      - name: " + strings.Repeat("a", 63) + "\n        image: x\n"
		return amplifier{function: "podspec-patch", config: config, input: input}
	},
	// JSON patch on a resource holding z*1000 aliases of a value of x KiB,
	// or a wildcard path over y levels of an alias bomb
	func(x, y, z int) amplifier {
		if y%2 == 0 {
			return amplifier{function: "multi-patch",
				config: multiPatch("- target: {kind: ConfigMap}\n  type: json6902\n  patch: |\n    - {op: add, path: /data/b, value: \"1\"}\n"),
				input: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: &a " + strings.Repeat("x", 1+1024*(x%128)) +
					"\nlist:\n" + strings.Repeat("- *a\n", 1+z*40)}
		}
		levels := 1 + y%12
		return amplifier{function: "multi-patch", input: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n" + aliasBomb(2+x%15, levels),
			config: multiPatch(fmt.Sprintf("- target: {kind: ConfigMap}\n  onNoMatch: ignore\n  embedded: \"data.l%d%s\"\n  patch: |\n    a: 1\n",
				levels, strings.Repeat(".*", z%(levels+1))))}
	},
	// a patch of x*y values merged into z*8 resources
	func(x, y, z int) amplifier {
		var patch, input strings.Builder
		patch.WriteString("- target: {kind: ConfigMap}\n  patch: |\n    data:\n")
		for i := range x * y {
			fmt.Fprintf(&patch, "      k%d: v%d\n", i, i)
		}
		for i := range 1 + z*8 {
			input.WriteString(configMap(fmt.Sprintf("cm%d", i), "a: \"1\"") + "---\n")
		}
		return amplifier{function: "multi-patch", config: multiPatch(patch.String()), input: input.String()}
	},
}
