package patch

import (
	"errors"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/internal/budget"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Both names of every type, in any case, everywhere.
func TestParseType(t *testing.T) {
	for s, want := range map[string]Type{
		"":                    0,
		"StrategicMergePatch": Strategic, "strategic": Strategic, "STRATEGIC": Strategic,
		"JsonPatch": JSON, "json6902": JSON, "jsonpatch": JSON,
		"MergePatch": Merge, "merge": Merge, "Merge": Merge,
		"ApplyPatch": Apply, "apply": Apply, "Apply": Apply,
	} {
		got, err := ParseType(s)
		if err != nil || got != want {
			t.Errorf("%q: got %v, %v; want %v", s, got, err, want)
		}
	}
	_, err := ParseType("StrategicMerge")
	if err == nil || !strings.Contains(err.Error(), `type: unknown patch type "StrategicMerge" (want StrategicMergePatch or strategic; JsonPatch or json6902; MergePatch or merge; ApplyPatch or apply)`) {
		t.Errorf("got %v", err)
	}
}

// Every type has a row: its names, its words, whether it has a default.
func TestTypes(t *testing.T) {
	for _, ty := range order {
		if ty.String() == "" || ty.Short() == "" || ty.Words() == "" {
			t.Errorf("type %d lacks a name", ty)
		}
		if back, err := ParseType(ty.Short()); err != nil || back != ty {
			t.Errorf("%s: its short name reads back as %v, %v", ty, back, err)
		}
	}
	if JSON.HasDefault() || Apply.HasDefault() || !Strategic.HasDefault() || !Merge.HasDefault() {
		t.Error("only a JSON patch has no default mode")
	}
}

// A document without a type: a list is a JSON patch; a map is strategic,
// but a merge patch into a string.
func TestTypeByShape(t *testing.T) {
	for _, c := range []struct {
		into Into
		text string
		want Type
	}{
		{Resource, "a: 1", Strategic},
		{Resource, "[]", JSON},
		{PodSpec, "a: 1", Strategic},
		{Container, "a: 1", Strategic},
		{Container, "- {op: remove, path: /a}", JSON},
		{String, "a: 1", Merge},
		{String, "[]", JSON},
	} {
		docs, err := Parse(c.text, Options{Into: c.into})
		if err != nil {
			t.Errorf("%d %q: %v", c.into, c.text, err)
			continue
		}
		if got := docs[0].Type; got != c.want {
			t.Errorf("%d %q: got %s, want %s", c.into, c.text, got, c.want)
		}
	}
}

// What Parse refuses, in each place's words.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		into Into
		typ  Type
		fill bool
		text string
		err  string
	}{
		// shapes
		{Resource, 0, false, "plain", `a patch is a map (strategic merge or merge patch) or a list of operations (JSON patch), got "plain"`},
		{PodSpec, 0, false, "- name: envoy", "a PodSpec patch is a map (containers, volumes, serviceAccountName...)"},
		{Container, 0, false, "5", `a container patch is a Container map (strategic) or a list of JSON patch operations, got "5"`},
		{String, 0, false, "plain", `a patch into strings is a map (merge or strategic merge patch) or a list of operations (JSON patch), got "plain"`},
		{Resource, Strategic, false, "[]", "a strategic merge patch is a map, got a list (a list of operations is a JSON patch: type JsonPatch or json6902)"},
		{String, Merge, false, "[a]", "a merge patch is a map, got a list"},
		{Resource, JSON, false, "a: 1", "a JSON patch is a list of operations, got a map"},
		{PodSpec, Merge, false, "a: 1", "type: MergePatch is not a type a PodSpec patch can be"},
		{Resource, JSON, false, "[{op: jump, path: /a}]", `JSON patch: op[0]: unknown op "jump"`},
		// documents
		{Resource, 0, false, "", "the patch is empty"},
		{String, 0, false, "# nothing\n---\nnull\n", "the patch is empty"},
		{String, 0, false, "a: 1\n---\nb: 2\n", "a patch into strings is one document; this one has 2"},
		{PodSpec, 0, false, "a: 1\n---\nb: 2\n", "a PodSpec patch is one document; this one has 2"},
		{Resource, 0, false, "a: 1\n---\n[{op: jump, path: /a}]\n", `document 1: JSON patch: op[0]: unknown op "jump"`},
		// $patch: delete
		{PodSpec, 0, false, "$patch: delete", "$patch: delete would delete the PodSpec itself"},
		{Container, 0, false, "$patch: delete", "$patch: delete would delete every container"},
		{String, Strategic, false, "$patch: delete", "$patch: delete would delete the whole document"},
		{Resource, 0, true, "$patch: delete", "mode: default fills what a resource lacks; $patch: delete would delete it"},
		// mode: default
		{Resource, 0, true, "[]", "mode: default fills what a resource lacks; a JSON patch's operations say themselves what to do, so it has no default mode (use a strategic or merge patch)"},
		{Container, 0, true, "[]", "mode: default fills what each container lacks; a JSON patch's operations say themselves what to do, so it has no default mode (write the container patch as a Container map)"},
		{String, JSON, true, "[]", "mode: default fills what the document lacks; a JSON patch's operations say themselves what to do, so it has no default mode (use a merge or strategic patch)"},
		{Resource, Merge, true, "data: {retired: null}", "data.retired: mode: default fills what is missing and changes nothing that is there: null (which deletes the field) cannot be part of a default"},
		{String, 0, true, "a: null", "null (which deletes the field) cannot be part of a default"},
	} {
		_, err := Parse(c.text, Options{Into: c.into, Type: c.typ, Default: c.fill})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%d %v %q: got %v, want %q", c.into, c.typ, c.text, err, c.err)
		}
	}
	if _, err := Parse("", Options{Into: Resource}); !errors.Is(err, ErrEmpty) {
		t.Errorf("an empty text: got %v, want ErrEmpty", err)
	}
	if _, err := Parse("a: [1", Options{Into: Resource}); err == nil || !strings.HasPrefix(err.Error(), "yaml: ") {
		t.Errorf("a syntax error: got %v, want yaml.v3's, for yamlerr to place", err)
	}
}

// A strategic patch whose root is $patch: delete deletes the resource it
// meets; a default may not.
func TestDeletes(t *testing.T) {
	docs, err := Parse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n$patch: delete\n", Options{Into: Resource})
	if err != nil || !docs[0].Deletes {
		t.Fatalf("got %v, %v; want a document that deletes", docs, err)
	}
}

// Check runs on each document, and its errors name the document.
func TestCheck(t *testing.T) {
	var seen []Type
	_, err := Parse("a: 1\n---\n[]\n", Options{Into: Resource, Check: func(d *Doc) error {
		seen = append(seen, d.Type)
		if d.Type == JSON {
			return errors.New("no target")
		}
		return nil
	}})
	if err == nil || err.Error() != "document 1: no target" || len(seen) != 2 {
		t.Errorf("got %v after %v", err, seen)
	}
}

func TestParseMode(t *testing.T) {
	for mode, want := range map[string]bool{"": false, "default": true} {
		if got, err := ParseMode(mode, Resource); err != nil || got != want {
			t.Errorf("%q: got %v, %v", mode, got, err)
		}
	}
	if _, err := ParseMode("defaults", Resource); err == nil || err.Error() != `mode: unknown mode "defaults" (want default, which fills only what a resource lacks; or no mode)` {
		t.Errorf("got %v", err)
	}
	if _, err := ParseMode("fill", PodSpec, Container); err == nil || err.Error() != `mode: unknown mode "fill" (want default, which fills only what a PodSpec and each container lack; or no mode)` {
		t.Errorf("got %v", err)
	}
}

// Apply: each type as it applies to a resource, a default filling only
// what is missing.
func TestApply(t *testing.T) {
	const res = "kind: ConfigMap\ndata:\n  a: '1'\n  list: [x]\n"
	for _, c := range []struct {
		typ    Type
		fill   bool
		text   string
		want   string
		filled int
	}{
		{Strategic, false, "data: {b: '2'}", "kind: ConfigMap\ndata:\n  a: '1'\n  list: [x]\n  b: '2'\n", 0},
		{Merge, false, "data: {a: null, list: [z]}", "kind: ConfigMap\ndata:\n  list: [z]\n", 0},
		{Merge, true, "data: {a: '9', c: '3'}", "kind: ConfigMap\ndata:\n  a: '1'\n  list: [x]\n  c: '3'\n", 1},
		{Strategic, true, "data: {a: '9', c: '3'}", "kind: ConfigMap\ndata:\n  a: '1'\n  list: [x]\n  c: '3'\n", 1},
		{JSON, false, "[{op: remove, path: /data/list}]", "kind: ConfigMap\ndata:\n  a: '1'\n", 0},
		// deduced (no type given): maps merged, lists replaced; new values
		// written as YAML writes them, as a merge patch's are
		{Apply, false, "data: {b: '2', list: [z]}", "kind: ConfigMap\ndata:\n  a: '1'\n  list: [z]\n  b: \"2\"\n", 0},
	} {
		docs, err := Parse(c.text, Options{Into: Resource, Type: c.typ, Default: c.fill})
		if err != nil {
			t.Fatalf("%s %q: %v", c.typ, c.text, err)
		}
		n := yaml.MustParse(res)
		r, err := docs[0].Apply(n, Types{}, nil)
		if err != nil {
			t.Fatalf("%s %q: %v", c.typ, c.text, err)
		}
		if got := n.MustString(); got != c.want || r.Filled != c.filled {
			t.Errorf("%s %q (default %v): got\n%s(filled %d), want\n%s(filled %d)", c.typ, c.text, c.fill, got, r.Filled, c.want, c.filled)
		}
	}
}

// TestApplyChargesTheRunsBudget: every type charges what it adds to the
// run's budget, the apply patch too (it merged within a budget of its own,
// so one apply patch merged into every resource of a large input was never
// stopped by the run's limits). Each run here may add 64 bytes.
func TestApplyChargesTheRunsBudget(t *testing.T) {
	big := strings.Repeat("x", 100)
	for _, typ := range []Type{Strategic, Merge, Apply} {
		docs, err := Parse("data: {b: "+big+"}", Options{Into: Resource, Type: typ})
		if err != nil {
			t.Fatal(err)
		}
		n := yaml.MustParse("kind: ConfigMap\ndata:\n  a: '1'\n")
		b := budget.Limits(1<<20, 64)
		if _, err = docs[0].Apply(n, Types{}, b); err == nil || !b.Spent() {
			t.Errorf("%s: %v, want the run's budget spent (spent: %v)", typ, err, b.Spent())
		}
		if got := n.MustString(); strings.Contains(got, big) {
			t.Errorf("%s: the resource changed:\n%s", typ, got)
		}
	}
}

// TestKeyGivenTwiceInAnyPatch: a patch of any type that gives a key twice
// is refused when it is read. A merge patch took the last value in
// silence, while strategic and apply patches refused it.
func TestKeyGivenTwiceInAnyPatch(t *testing.T) {
	for _, c := range []struct {
		typ  Type
		text string
	}{
		{Strategic, "data:\n  b: '1'\n  b: '2'\n"},
		{Merge, "data:\n  b: '1'\n  b: '2'\n"},
		{Apply, "data:\n  b: '1'\n  b: '2'\n"},
		{JSON, "- op: add\n  path: /data/b\n  path: /data/c\n  value: x\n"},
	} {
		_, err := Parse(c.text, Options{Into: Resource, Type: c.typ})
		if err == nil || !strings.Contains(err.Error(), `is given twice`) || !strings.Contains(err.Error(), "lines 2 and 3 of the patch") {
			t.Errorf("%s: %v", c.typ, err)
		}
	}
}
