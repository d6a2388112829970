package jsonpatch

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/patchwork-krm/patchwork/internal/yamljson"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzApply checks the sync step: whatever the document and the patch, the
// yaml document after Apply holds exactly what json-patch computed, and
// nothing panics.
func FuzzApply(f *testing.F) {
	f.Add("a: 1 # c\nb: [x, y]\n", `[{"op":"add","path":"/b/1","value":{"k":"v"}}]`)
	f.Add("a: {b: {c: 'q'}}\n", `[{"op":"move","from":"/a/b","path":"/d"}]`)
	f.Add("l: [1, 2, 3, 2]\n", `[{"op":"remove","path":"/l/0"},{"op":"copy","from":"/l/0","path":"/l/-"}]`)
	f.Add("x: y\n", `{"x": null, "z": [1, {"a": true}]}`)
	f.Fuzz(func(t *testing.T, docText, patchText string) {
		doc, err := yaml.Parse(docText)
		if err != nil || doc.YNode().Kind != yaml.MappingNode {
			return
		}
		patch, err := yaml.Parse(patchText)
		if err != nil {
			return
		}
		in, err := yamljson.Encode(doc.YNode(), nil)
		if err != nil {
			return
		}
		var want []byte
		switch patch.YNode().Kind {
		case yaml.SequenceNode:
			ops, err := ParseOps(patch)
			if err != nil {
				return
			}
			want, _ = ops.patch.Apply(in)
			err = ops.Apply(doc, nil)
			if (err == nil) != (want != nil) {
				t.Fatalf("Apply err = %v, library result %s", err, want)
			}
		case yaml.MappingNode:
			mp, err := ParseMergePatch(patch)
			if err != nil {
				return
			}
			want, _ = jsonpatch.MergePatch(in, mp.raw)
			if err := mp.Apply(doc, nil); (err == nil) != (want != nil) {
				t.Fatalf("Apply err = %v, library result %s", err, want)
			}
		default:
			return
		}
		if want == nil {
			return
		}
		got, err := yamljson.Encode(doc.YNode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !sameJSON(got, want) {
			t.Fatalf("document after Apply:\n%s\nlibrary result:\n%s", got, want)
		}
	})
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return bytes.Equal(ja, jb)
}
