package fnconfig

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestDecodeRejectsUnknownFields(t *testing.T) {
	cfg := yaml.MustParse("apiVersion: x/v1\nkind: K\nmetadata: {name: n}\npatchs: []\n")
	var into struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Patches    []any          `json:"patches"`
	}
	err := Decode(cfg, &into)
	if err == nil || !strings.Contains(err.Error(), `unknown field "patchs"`) {
		t.Fatalf("err = %v", err)
	}
}

// A value of the wrong kind is named by its path and line, in the config's
// words, never as Go struct fields ("cannot unmarshal number into Go struct
// field Args.configMapGenerator.name of type string"), and without the
// value (it may be a secret literal).
func TestDecodeWrongKindOfValue(t *testing.T) {
	type target struct {
		Name string `json:"name"`
	}
	type entry struct {
		Name    string   `json:"name"`
		Files   []string `json:"files"`
		Create  bool     `json:"create"`
		Index   int      `json:"index"`
		Target  *target  `json:"target"`
		Options map[string]string
	}
	var into struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Entries    []entry        `json:"entries"`
	}
	cases := map[string]string{
		"entries:\n- name: 123\n":         "entries[0].name: want a string, got a number (line 5); quote it to make it a string",
		"entries:\n- name: true\n":        "entries[0].name: want a string, got a boolean (line 5)",
		"entries:\n- files: a.txt\n":      "entries[0].files: want a list, got a string (line 5)",
		"entries:\n- create: 'yes'\n":     "entries[0].create: want true or false, got a string (line 5)",
		"entries:\n- index: one\n":        "entries[0].index: want a whole number, got a string (line 5)",
		"entries:\n- target: [1]\n":       "entries[0].target: want a map, got a list (line 5)",
		"entries:\n- target: {name: 7}\n": "entries[0].target.name: want a string, got a number (line 5)",
		"entries: {a: b}\n":               "entries: want a list, got a map (line 4)",
		"entries:\n- name: \"123\"\n  index: 3\n  create: true\n  files: [a]\n  target: {name: x}\n  name2: x\n": `entries[0]: unknown field "name2" (line 10)`,
	}
	for cfg, want := range cases {
		head := "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\n"
		err := Decode(mustParse(t, head+cfg), &into)
		if err == nil {
			t.Errorf("%q: no error, want %q", cfg, want)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "123") {
			t.Errorf("%q:\n got %s\nwant %s", cfg, msg, want)
		}
	}
	if err := Decode(mustParse(t, "apiVersion: fn.patchwork.dev/v1alpha1\nkind: Test\nmetadata: {name: t}\nentries:\n- name: ~\n  files: null\n"), &into); err != nil {
		t.Errorf("null values: %v", err)
	}
}

// An unknown config field names the closest known one.
func TestUnknownFieldSuggestsField(t *testing.T) {
	type sel struct {
		MatchLabels map[string]string `json:"matchLabels"`
	}
	type entry struct {
		Select     *sel     `json:"select"`
		FieldPaths []string `json:"fieldPaths"`
	}
	var into struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Targets    []entry        `json:"targets"`
	}
	cfg := yaml.MustParse("apiVersion: x/v1\nkind: K\nmetadata: {name: n}\ntargets:\n- selector: {}\n- fieldPath: [a]\n- select: {matchLabel: {a: b}}\n- bogusfield: 1\n")
	err := Decode(cfg, &into)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`targets[0]: unknown field "selector" (line 5); did you mean select?`,
		`targets[1]: unknown field "fieldPath" (line 6); did you mean fieldPaths?`,
		`targets[2].select: unknown field "matchLabel" (line 7); did you mean matchLabels?`,
		`targets[3]: unknown field "bogusfield" (line 8)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), `"bogusfield" (line 8);`) {
		t.Errorf("a far-off field got a suggestion: %v", err)
	}
}

// A field written a level too high names the entries that take it, and a
// list written as one value shows the shape of an entry (issue 30).
func TestFieldAtTheWrongLevel(t *testing.T) {
	type source struct {
		Path string `json:"path"`
	}
	type entry struct {
		Patch string `json:"patch,omitempty"`
		Mode  string `json:"mode,omitempty"`
	}
	var into struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Patches    []entry        `json:"patches"`
		Schemas    []source       `json:"schemas"`
		Files      []string       `json:"files"`
	}
	cfg := yaml.MustParse("apiVersion: x/v1\nkind: K\nmetadata: {name: n}\nmode: default\nschemas: crds.yaml\nfiles: a.json\npatches: []\n")
	err := Decode(cfg, &into)
	for _, want := range []string{
		`unknown field "mode" (line 4); mode goes in each patches entry`,
		`schemas: want a list, got a string (line 5); write a list, one "- path: …" per entry`,
		`files: want a list, got a string (line 6); write a list, one "- …" per entry`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}

func mustParse(t *testing.T, s string) *yaml.RNode {
	t.Helper()
	n, err := yaml.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
