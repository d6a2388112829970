package embedpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	jsonpatchlib "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
)

// FuzzApply: a patch into a string either fails with an error, or gives
// text that reads back as a document of the same format meaning what the
// patch means — RFC 7386 on the decoded values for merge patches, the
// evanphx library's result for JSON patches, the merge engine's for
// strategic ones, apply patches and defaults — and that a merge, strategic
// or apply patch leaves as it is when applied again. A patch that changes
// nothing leaves the text byte for byte. typ picks one of the first three
// types (as the saved corpus has it); every input runs as an apply patch
// too.
func FuzzApply(f *testing.F) {
	f.Add(configJSON, `{"server": {"tls": true}}`, uint8(Merge), false)
	f.Add(prometheusYAML, "scrape_configs:\n- job_name: api\n  x: 1\n- job_name: node\n  $patch: delete\n", uint8(Strategic), false)
	f.Add(prometheusYAML, "- {op: add, path: /scrape_configs/-, value: {job_name: api}}\n- {op: remove, path: /global}\n", uint8(JSON6902), false)
	f.Add(configJSON, `{"server": {"port": 1, "new": [1, 2]}, "log": null}`, uint8(Merge), false)
	f.Add(configJSON, `{"server": {"port": 1, "new": {"a": 1}}}`, uint8(Strategic), true)
	f.Add("a: &x {b: 1}\nc: *x\nl: [1, 2]\n", "c: {d: 2}\nl: [3]\n", uint8(Strategic), false)
	f.Add("# head\nk: v # line\n\nlist:\n- a\n- b\n", "- {op: add, path: /list/1, value: z}\n", uint8(JSON6902), false)
	f.Add("{}", `{"a": {"b": {"c": null}}}`, uint8(Merge), false)
	f.Add(configJSON, `{"server": {"port": 1, "new": [1, 2]}}`, uint8(0), false)
	f.Add("apiVersion: v1\nkind: Pod\nmetadata: {name: p, finalizers: [a]}\nspec:\n  containers:\n  - name: c\n    ports: [{containerPort: 53, protocol: UDP}]\n",
		"metadata: {finalizers: [b, a]}\nspec: {containers: [{name: c, ports: [{containerPort: 53, protocol: TCP}]}], tolerations: [{key: k}]}\n", uint8(0), false)
	f.Fuzz(func(t *testing.T, text, patch string, typ uint8, fill bool) {
		checkApply(t, text, patch, Type(typ%3+1), fill)
		checkApply(t, text, patch, Apply, fill)
	})
}

// checkApply is FuzzApply's check of one patch of type ty.
func checkApply(t *testing.T, text, patch string, ty Type, fill bool) {
	p, err := Parse(ty, patch, fill)
	if err != nil {
		return
	}
	var declared *schema.Type
	if ty == Strategic {
		declared, _ = declared.WithListKeys(schema.ListKeys{Path: mustPath("scrape_configs"), Keys: []string{"job_name"}})
	}
	o := Options{Type: declared}
	out, err := p.Apply(text, o)
	if err != nil {
		// Package embedded refuses, safely, edits it cannot lay out
		// (a flow map entry without a colon, {a}, given a value):
		// its limits, not this package's mistakes. Any other error
		// that says "please report" is a bug here.
		refused := strings.Contains(err.Error(), "without disturbing the rest of it")
		if !refused && (strings.Contains(err.Error(), "internal error") || strings.Contains(err.Error(), "please report")) {
			t.Fatalf("%v\ntext:\n%s\npatch:\n%s", err, text, patch)
		}
		return
	}
	// (the result is read in the text's format: YAML that became {}
	// reads as JSON too, which is no harm)
	format := detect(text, o)
	got := value(t, out, format, toValue)
	want, ok := meaning(t, p, text, patch, o)
	if ty == JSON6902 {
		// the library's world: keys as they are spelled
		got = value(t, out, format, asJSON)
	}
	if ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("the result does not mean what the patch means:\ngot  %#v\nwant %#v\ntext:\n%s\nout:\n%s", got, want, text, out)
	}
	if reflect.DeepEqual(value(t, out, format, toValue), value(t, text, format, toValue)) && out != text {
		t.Fatalf("a patch that changes nothing rewrote the text:\n%s\n---\n%s", text, out)
	}
	if ty == JSON6902 {
		return // operations may apply differently to their own result
	}
	again, err := p.Apply(out, o)
	if err != nil || again != out {
		t.Fatalf("applying twice differs from once (%v):\nonce:\n%s\ntwice:\n%s", err, out, again)
	}
}

// meaning is what the patch makes of text's value, computed apart from
// the edits: false when there is no independent reference.
func meaning(t *testing.T, p *Patch, text, patch string, o Options) (any, bool) {
	root, err := embedded.Get(text, nil, embedded.Options{Format: o.Format})
	if err != nil {
		t.Fatalf("Apply read a text Get cannot: %v", err)
	}
	in, err := yamljson.Encode(root[0], nil)
	if err != nil {
		return nil, false
	}
	switch {
	case p.typ == Merge && !p.fill && sharesNodes(root[0]):
		// An anchored value changed changes what its aliases stand for
		// (strategic merge's rule); the library sees data, not anchors.
		return nil, false
	case p.typ == Merge && !p.fill:
		// RFC 7386 as the evanphx library applies it (which also drops
		// null members of maps in the lists a patch brings, as strategic
		// merge does); directives are strategic merge's, not the RFC's.
		base, err1 := json.Marshal(toValue(t, root[0]))
		over, err2 := json.Marshal(toValue(t, p.node.YNode()))
		if err1 != nil || err2 != nil || strings.Contains(string(over), `"$`) {
			return nil, false
		}
		out, err := jsonpatchlib.MergePatch(base, over)
		if err != nil {
			return nil, false
		}
		return decodeJSON(t, out), true
	case p.typ == JSON6902:
		ops, err := yamljson.Encode(yaml.MustParse(patch).YNode(), nil)
		if err != nil {
			return nil, false
		}
		lib, err := jsonpatchlib.DecodePatch(ops)
		if err != nil {
			return nil, false
		}
		out, err := lib.Apply(in)
		if err != nil {
			t.Fatalf("Apply succeeded where the library fails: %v", err)
		}
		return decodeJSON(t, out), true
	}
	// strategic merges and defaults: the merge engine's nodes are the
	// reference; what is checked is that the text says the same.
	doc, err := valuemerge.Open(text, root[0], valuemerge.Options{})
	if err != nil {
		return nil, false
	}
	want := doc.Want
	if err := p.applyNodes(want, o); err != nil {
		t.Fatalf("Apply succeeded where the merge fails: %v", err)
	}
	return toValue(t, want), true
}

func value(t *testing.T, text string, f embedded.Format, as func(*testing.T, *yaml.Node) any) any {
	roots, err := embedded.Get(text, nil, embedded.Options{Format: f})
	if err != nil {
		t.Fatalf("does not read back: %v\n%s", err, text)
	}
	return as(t, roots[0])
}

// asJSON is a node as package jsonpatch hands it to the library.
func asJSON(t *testing.T, n *yaml.Node) any {
	b, err := yamljson.Encode(n, nil)
	if err != nil {
		t.Fatalf("cannot encode: %v", err)
	}
	return decodeJSON(t, b)
}

// toValue is what a node means to a reader that turns YAML into JSON, as
// Kubernetes tools do: map keys as yaml.v3 resolves them (a plain empty key
// is null, which becomes "null"), scalars as JSON values.
func toValue(t *testing.T, n *yaml.Node) any {
	n = yamltree.Resolve(n)
	switch n.Kind {
	case yaml.DocumentNode:
		return toValue(t, n.Content[0])
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[valueKey(t, n.Content[i])] = toValue(t, n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = toValue(t, c)
		}
		return l
	}
	b, err := yamljson.Encode(n, nil)
	if err != nil {
		t.Fatalf("cannot encode: %v", err)
	}
	return decodeJSON(t, b)
}

// valueKey is the JSON key toValue makes of map key k: yaml.v3's, or for
// a map or list used as a key (which has no scalar forms: {{}: x}) its
// own JSON, which no scalar key spells.
func valueKey(t *testing.T, k *yaml.Node) string {
	if forms := scalar.KeyForms(yamltree.Resolve(k)); len(forms) > 1 {
		return strings.TrimPrefix(forms[1], "v3\x00")
	}
	return fmt.Sprintf("\x00%v", toValue(t, k))
}

func decodeJSON(t *testing.T, b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// normalize passes a value through JSON, as value does.
func normalize(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return decodeJSON(t, b)
}

// sharesNodes reports whether a document holds anchors or aliases.
func sharesNodes(n *yaml.Node) bool {
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if sharesNodes(c) {
			return true
		}
	}
	return false
}

func mustPath(s string) fieldpath.Path { return fieldpath.MustParse(s) }
