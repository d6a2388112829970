package validate

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

// bytesSource draws choices from fuzz input, zeros once it runs out.
type bytesSource struct {
	b []byte
	i int
}

func (s *bytesSource) n(k int) int {
	if k <= 1 {
		return 0
	}
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return int(s.b[s.i-1]) % k
}

var keys = []string{"a", "b", "c", "d"}

// schemaOf draws a random openAPIV3Schema: objects (closed, open, maps),
// arrays, and scalars with enums, patterns and bounds.
func (s *bytesSource) schemaOf(depth int) map[string]any {
	kinds := []string{"string", "integer", "number", "boolean", "int-or-string", "array", "object", "map", "open"}
	k := kinds[s.n(len(kinds))]
	if depth > 2 && (k == "array" || k == "object" || k == "map" || k == "open") {
		k = "string"
	}
	switch k {
	case "string":
		m := map[string]any{"type": "string"}
		switch s.n(4) {
		case 1:
			m["enum"] = []any{"x", "y"}
		case 2:
			m["pattern"] = "^[a-x]+$"
		case 3:
			m["maxLength"] = 2
		}
		return m
	case "integer", "number":
		return map[string]any{"type": k, "minimum": s.n(3), "maximum": 5 + s.n(3)}
	case "int-or-string":
		return map[string]any{"x-kubernetes-int-or-string": true}
	case "array":
		return map[string]any{"type": "array", "items": s.schemaOf(depth + 1), "maxItems": 1 + s.n(3)}
	case "map":
		return map[string]any{"type": "object", "additionalProperties": s.schemaOf(depth + 1)}
	case "open":
		return map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}
	case "boolean":
		return map[string]any{"type": "boolean"}
	}
	props := map[string]any{}
	var required []any
	for _, key := range keys[:1+s.n(len(keys))] {
		props[key] = s.schemaOf(depth + 1)
		if s.n(3) == 0 {
			required = append(required, key)
		}
	}
	m := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		m["required"] = required
	}
	return m
}

// valueOf draws a random value: maps over a few more keys than the schema
// knows, lists, scalars of every type, nulls (which a patch deletes with).
func (s *bytesSource) valueOf(depth int) any {
	switch c := s.n(9); {
	case c == 0 && depth < 3:
		m := map[string]any{}
		for _, key := range append(keys, "e")[:1+s.n(5)] {
			m[key] = s.valueOf(depth + 1)
		}
		return m
	case c == 1 && depth < 3:
		var l []any
		for range s.n(4) {
			l = append(l, s.valueOf(depth+1))
		}
		return l
	case c == 2:
		return nil
	case c == 3:
		return s.n(12) - 2
	case c == 4:
		return 1.5
	case c == 5:
		return s.n(2) == 0
	case c == 6:
		return "X"
	}
	return []string{"x", "y", "abc", "12"}[s.n(4)]
}

func marshal(t *testing.T, v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// touched reports whether a finding is at a place a change touched: the
// place itself, or inside what it added or changed, or the list whose
// elements it changed.
func touched(f Finding, changes []treediff.Change) bool {
	for _, c := range changes {
		w := c.Where()
		switch {
		case f.Where == w, f.Where == c.Parent() && f.Check == Bounds:
		case c.Op != treediff.Removed && (strings.HasPrefix(f.Where, w+".") || strings.HasPrefix(f.Where, w+"[") || w == ""):
		default:
			continue
		}
		return true
	}
	return false
}

// Random patches merged into random documents of random custom resources:
// the checks never crash, and never report a place the patch did not
// touch.
func FuzzChanges(f *testing.F) {
	for _, seed := range []string{"", "\x06\x00\x01\x02\x03", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a", "\xff\xfe\xfd\x07\x07\x07\x01\x00\x00\x03"} {
		f.Add([]byte(seed), []byte(seed+"\x01\x00"), []byte("\x00\x00\x03\x02"))
	}
	f.Fuzz(func(t *testing.T, schemaBytes, docBytes, patchBytes []byte) {
		spec := (&bytesSource{b: schemaBytes}).schemaOf(0)
		crd := fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
%s`, indent(marshal(t, spec), "            "))
		s, _, err := schema.Builtin().WithCRDs([]*yaml.RNode{yaml.MustParse(crd)})
		if err != nil {
			t.Fatal(err)
		}
		doc := map[string]any{"apiVersion": "example.com/v1", "kind": "Thing", "metadata": map[string]any{"name": "t"},
			"spec": (&bytesSource{b: docBytes}).valueOf(0)}
		res := yaml.MustParse(marshal(t, doc))
		before, err := treediff.Snapshot(res.YNode())
		if err != nil {
			t.Fatal(err)
		}
		patch := yaml.MustParse(marshal(t, map[string]any{"spec": (&bytesSource{b: patchBytes}).valueOf(0)}))
		if _, err := smp.MergeWith(res, patch, nil, smp.Options{}); err != nil {
			return
		}
		changes, err := treediff.Diff(before.Root(), res.YNode(), treediff.Options{Origin: before.Origin})
		if err != nil {
			t.Fatal(err)
		}
		realChanges(t, before.Root(), res.YNode(), changes)
		for _, f := range Changes(s.Rule("example.com/v1", "Thing"), res.YNode(), changes, Options{}) {
			if !touched(f, changes) {
				t.Errorf("%s: %s, a place no change touched; changes:", f.Where, f)
				for _, c := range changes {
					t.Logf("  %s %s", c.Where(), c.Op)
				}
			}
		}
	})
}

// realChanges holds treediff to what touched means: a merge that left the
// document as it was changed nothing, and a value changed is another value,
// so that a finding at a change is a finding at a place the patch touched.
func realChanges(t *testing.T, before, after *yaml.Node, changes []treediff.Change) {
	t.Helper()
	if text(t, before) == text(t, after) && len(changes) > 0 {
		t.Errorf("the document did not change, yet %d changes: first at %s", len(changes), changes[0].Where())
	}
	for _, c := range changes {
		if c.Op == treediff.Changed && text(t, c.Old) == text(t, c.New) {
			t.Errorf("%s: changed from %q to the same value", c.Where(), text(t, c.New))
		}
	}
}

// text is a node as YAML.
func text(t *testing.T, n *yaml.Node) string {
	t.Helper()
	s, err := yaml.NewRNode(n).String()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}
