package valuemerge

import (
	"errors"
	"strings"
	"testing"
)

type mergeCase struct {
	name                string
	format              Format
	base, overlay, want string
}

var mergeCases = []mergeCase{
	{
		name:   "story 2: JSON keeps the base's order and indentation, new keys last",
		format: JSON,
		base: `{
  "config": {
    "loglevel": "debug",
    "parameter": {
      "foo": "bar"
    }
  }
}`,
		overlay: `{
  "config": {
    "hostname": "www.example.com",
    "parameter": {
      "baz": "qux"
    }
  }
}`,
		want: `{
  "config": {
    "loglevel": "debug",
    "parameter": {
      "foo": "bar",
      "baz": "qux"
    },
    "hostname": "www.example.com"
  }
}`,
	},
	{
		name:    "JSON compact stays compact; null deletes, also inside new objects; lists replace",
		format:  JSON,
		base:    `{"a":1,"b":{"c":2,"d":[1,2]},"e":null}` + "\n",
		overlay: `{"b":{"c":null,"d":[3],"x":{"y":null,"z":1}},"a":null,"n":[1, null]}`,
		want:    `{"b":{"d":[3],"x":{"z":1}},"e":null,"n":[1, null]}` + "\n",
	},
	{
		name:   "JSON four-space indent, tabs kept, multi-line overlay values re-indented",
		format: JSON,
		base:   "{\n    \"keep\" : [1,\n        2],\n    \"s\": \"x\"\n}",
		overlay: `{"s": "y", "obj": {
  "k": [
    1, 2
  ]
}}`,
		want: "{\n    \"keep\" : [1,\n        2],\n    \"s\": \"y\",\n    \"obj\" : {\n        \"k\" : [\n            1,\n            2\n        ]\n    }\n}",
	},
	{
		name:    "JSON deleting the last and only members",
		format:  JSON,
		base:    "{\n  \"a\": {\n    \"only\": 1\n  },\n  \"b\": 2\n}\n",
		overlay: `{"a": {"only": null}, "b": null}`,
		want:    "{\n  \"a\": {}\n}\n",
	},
	{
		name:    "JSON adding to an empty object in a pretty document",
		format:  JSON,
		base:    "{\n  \"a\": {}\n}",
		overlay: `{"a": {"b": true}}`,
		want:    "{\n  \"a\": {\n    \"b\": true\n  }\n}",
	},
	{
		name:    "JSON an equal value keeps the base's spelling",
		format:  JSON,
		base:    `{"n": 1.0, "l": [1,  2]}`,
		overlay: `{"n": 1.0, "l": [1, 2]}`,
		want:    `{"n": 1.0, "l": [1,  2]}`,
	},
	{
		name:    "JSON a non-object overlay replaces the whole value",
		format:  JSON,
		base:    "{\"a\": 1}\n",
		overlay: `[1, 2]`,
		want:    "[1, 2]\n",
	},
	{
		name:    "JSON empty base: the overlay less its nulls",
		format:  JSON,
		base:    "",
		overlay: `{"a": 1, "b": null}`,
		want:    `{"a": 1}`,
	},
	{
		name:    "JSON keys with escapes and unicode",
		format:  JSON,
		base:    `{"caf\u00e9": 1, "x<y": 2}`,
		overlay: `{"café": 3, "x\u003cy": null}`,
		want:    `{"caf\u00e9": 3}`,
	},
	{
		name:   "YAML keeps comments, blank lines, indentation and quoting; a list replaced is edited where it differs, a string in its quoting",
		format: YAML,
		base: `# Prometheus config
global:
    scrape_interval: 15s   # how often

    # labels for all series
    external_labels:
        env: "dev"   # replaced
        team: web
    # this one goes
    old: gone

scrape_configs:
  - job_name: "prometheus"
    static_configs:
      - targets: ["localhost:9090"]
# end
`,
		overlay: `global:
  external_labels:
    env: prod
    region: eu
  old: null
  new:
    nested: [a, b]
scrape_configs:
  - job_name: node
rule_files: [a.yml]
`,
		want: `# Prometheus config
global:
    scrape_interval: 15s   # how often

    # labels for all series
    external_labels:
        env: "prod"   # replaced
        team: web
        region: eu
    new:
        nested: [a, b]

scrape_configs:
  - job_name: "node"
rule_files: [a.yml]
# end
`,
	},
	{
		name:    "YAML block scalar content is not a comment; its entry goes whole",
		format:  YAML,
		base:    "a: 1\nb:\n  c: |\n    # not a comment\n    text\n  d: 2\n",
		overlay: "b:\n  c: null\n  e: 3\n",
		want:    "a: 1\nb:\n  d: 2\n  e: 3\n",
	},
	{
		name:    "YAML scalar becomes a map; compact sequences stay compact",
		format:  YAML,
		base:    "a: x\nlist:\n- 1\n- 2\n",
		overlay: "a: {b: 1}\nlist2: [3]\nz:\n  - q: 1\n",
		want:    "a: {b: 1}\nlist:\n- 1\n- 2\nlist2: [3]\nz:\n- q: 1\n",
	},
	{
		name:    "YAML without a final newline stays without",
		format:  YAML,
		base:    "a: 1\nb: 2",
		overlay: "c: 3",
		want:    "a: 1\nb: 2\nc: 3",
	},
	{
		name:    "YAML flow mapping in the base is edited in place",
		format:  YAML,
		base:    "m: {a: 1, b: 2}  # flow\nn: 1\n",
		overlay: "m: {b: null, c: 3}",
		want:    "m: {a: 1, c: 3}  # flow\nn: 1\n",
	},
	{
		name:    "YAML deleting every key leaves an empty map",
		format:  YAML,
		base:    "keep: 1\nm:\n  a: 1\n",
		overlay: "m: {a: null}",
		want:    "keep: 1\nm: {}\n",
	},
	{
		name:    "YAML overlay aliases are expanded",
		format:  YAML,
		base:    "a: 1\n",
		overlay: "d: &x {k: v}\ne: *x\n",
		want:    "a: 1\nd: {k: v}\ne: {k: v}\n",
	},
	{
		name:    "YAML quoted scalar replaced within its line",
		format:  YAML,
		base:    "image: 'nginx:1.0' # pinned\nport: 80\n",
		overlay: "image: 'nginx:1.1'\nport: \"8080\"\n",
		want:    "image: 'nginx:1.1' # pinned\nport: \"8080\"\n",
	},
	{
		name:    "YAML a document that is not a mapping is replaced",
		format:  YAML,
		base:    "- a\n- b\n",
		overlay: "x: 1\n",
		want:    "x: 1\n",
	},
	// YAML << keys and aliases: the result means what the merge
	// says for every reader; where the base cannot be edited in place it is
	// written with << keys and aliases expanded.
	{
		name:    "YAML deleting a value inherited through a << key",
		format:  YAML,
		base:    "defaults: &d\n  a: 1\n  b: 2\nprod:\n  <<: *d\n  c: 3\n",
		overlay: "prod:\n  a: null\n",
		want:    "defaults:\n  a: 1\n  b: 2\nprod:\n  b: 2\n  c: 3\n",
	},
	{
		name:    "YAML editing a map that a << key inherits from",
		format:  YAML,
		base:    "defaults: &d\n  a: 1\n  b: 2\nprod:\n  <<: *d\n  c: 3\n",
		overlay: "defaults:\n  a: 5\n",
		want:    "defaults:\n  a: 5\n  b: 2\nprod:\n  a: 1\n  b: 2\n  c: 3\n",
	},
	{
		// (strategic merge's rule, which every merge follows: before the
		// one merge engine, a merge of values wrote prod out as a:1)
		name:    "YAML editing an anchored map changes what its aliases stand for",
		format:  YAML,
		base:    "defaults: &d\n  a: 1\nprod: *d\n",
		overlay: "defaults:\n  a: 5\n",
		want:    "defaults: &d\n  a: 5\nprod: *d\n",
	},
	{
		name:    "YAML << keys elsewhere keep their spelling",
		format:  YAML,
		base:    "defaults: &d\n  a: 1\nprod:\n  <<: *d\n  c: 3\nother: x\n",
		overlay: "other: z\nprod:\n  c: 4\n",
		want:    "defaults: &d\n  a: 1\nprod:\n  <<: *d\n  c: 4\nother: z\n",
	},
	{
		name:    "YAML a << key in the overlay is what it brings in",
		format:  YAML,
		base:    "a: 1\n",
		overlay: "x: &o {p: 1}\n\"y\":\n  <<: *o\n  q: 2\n",
		want:    "a: 1\nx: {p: 1}\n\"y\":\n  p: 1\n  q: 2\n",
	},
	// Strings YAML 1.1 readers take for numbers (12:30:45 is 45045 to
	// PyYAML) are written quoted, on every path the merge may take.
	{
		name:    "YAML sexagesimal-looking strings are quoted when edited in",
		format:  YAML,
		base:    "a: x\n",
		overlay: "t: 12:30:45\nu: 1:20\n",
		want:    "a: x\nt: \"12:30:45\"\nu: \"1:20\"\n",
	},
	{
		name:    "YAML sexagesimal-looking strings are quoted when the base is rewritten",
		format:  YAML,
		base:    "a: &x {p: 1, q: 2}\nb:\n  <<: *x\n",
		overlay: "b: {p: null}\nt: 190:20:30.15\n",
		want:    "a: {p: 1, q: 2}\nb:\n  q: 2\nt: \"190:20:30.15\"\n",
	},
	{
		name:    "YAML sexagesimal-looking strings are quoted when the overlay replaces the base",
		format:  YAML,
		base:    "- 1\n",
		overlay: "t: 12:30:45\n",
		want:    "t: \"12:30:45\"\n",
	},
}

func TestMerge(t *testing.T) {
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Merge(tc.format, tc.base, tc.overlay)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
			again, err := Merge(tc.format, got, tc.overlay)
			if err != nil {
				t.Fatal(err)
			}
			if again != got {
				t.Fatalf("merging twice differs from once:\n%s", again)
			}
		})
	}
}

func TestMergeErrors(t *testing.T) {
	for _, tc := range []struct {
		format        Format
		base, overlay string
		which, msg    string
	}{
		{JSON, "{\n  \"config\": {\n    \"loglevel\": debug\n  }\n}", `{"a": 1}`, "base", "base value is not valid JSON at line 3, column 17: invalid character 'd'"},
		{JSON, `{"a": 1}`, `{"a": }`, "overlay", "overlay value is not valid JSON at line 1, column 7"},
		{JSON, `{"a": 1}`, "  ", "overlay", "overlay value is not valid JSON: the value is empty"},
		{JSON, `{"a": 1} {}`, `{}`, "base", "base value is not valid JSON"},
		{YAML, "a: [1\n", "b: 1", "base", "base value is not valid YAML"},
		{YAML, "a: 1", "a: 1\n b: 2\n", "overlay", "overlay value is not valid YAML at line 2"},
		{YAML, "a: 1\na: 2\n", "b: 1", "base", `mapping key "a" already defined`},
		{YAML, "a: 1\n---\nb: 2\n", "b: 1", "base", "more than one document"},
	} {
		_, err := Merge(tc.format, tc.base, tc.overlay)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Which != tc.which || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Merge(%q, %q): error %v; want a %s error containing %q", tc.base, tc.overlay, err, tc.which, tc.msg)
		}
	}
	if _, err := Merge("ini", "a = 1", "b = 2"); err == nil || !strings.Contains(err.Error(), `unknown format "ini"`) {
		t.Errorf("unknown format: %v", err)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"json": JSON, "JSON": JSON, "yaml": YAML, "yml": YAML} {
		if got, err := ParseFormat(in); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "xml"} {
		if _, err := ParseFormat(bad); err == nil {
			t.Errorf("ParseFormat(%q) succeeded", bad)
		}
	}
}
