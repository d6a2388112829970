package multipatch

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/patch"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FuzzPatch: any patch text and type is either refused with an error or
// applies to a resource without panicking, as a patch and as a default
// (mode: default).
func FuzzPatch(f *testing.F) {
	configMap, err := apply.Builtin().For("v1", "ConfigMap")
	if err != nil {
		f.Fatal(err)
	}
	f.Add("spec:\n  replicas: 3\n", "", true)
	f.Add("- op: add\n  path: /metadata/labels/a\n  value: b\n", "JsonPatch", true)
	f.Add("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: null}\n---\n$patch: delete\n", "", false)
	f.Add("metadata: {labels: {x: null}}", "MergePatch", true)
	f.Add("data: {b: '2'}\nmetadata: {finalizers: [a, a], labels: {x: y}}\nbinaryData: [1]\n", "ApplyPatch", true)
	f.Fuzz(func(t *testing.T, text, typ string, targeted bool) {
		for _, fill := range []bool{false, true} {
			pt, err := patch.ParseType(typ)
			if err != nil {
				continue
			}
			docs, err := parseDocuments(text, pt, targeted, nil, fill)
			if err != nil {
				continue
			}
			for _, d := range docs {
				res := yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: {a: b}\ndata:\n  a: '1'\n")
				_, _ = d.Apply(res, patch.Types{Apply: configMap}, nil)
			}
		}
	})
}
