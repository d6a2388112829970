package jsonpatch

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Operations on path "" (the whole resource) once failed with the JSON
// patch library's "%!w(<nil>)" and Go type names.
func TestWholeDocumentPathErrorsAreReadable(t *testing.T) {
	for patch, want := range map[string]string{
		`[{op: replace, path: "", value: 1}]`: `op[0]: replace "": path "" is the whole resource, so the value must be a map, not the number 1`,
		`[{op: add, path: "", value: [1]}]`:   `op[0]: add "": path "" is the whole resource, so the value must be a map, not a list`,
		`[{op: remove, path: ""}]`:            `op[0]: remove "": path "" is the whole resource, which a JSON patch cannot remove`,
	} {
		_, err := ParseOps(yaml.MustParse(patch))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", patch, err, want)
		}
	}
	// A value given by an alias is the value it stands for, as everywhere
	// in a patch: a map here (it was refused as "not a document").
	aliased := "- {op: add, path: /data, value: &m {a: b}}\n- {op: replace, path: \"\", value: *m}\n"
	if _, err := ParseOps(yaml.MustParse(aliased)); err != nil {
		t.Errorf("a map given by an alias: %v", err)
	}
	ops, err := ParseOps(yaml.MustParse(`[{op: test, path: "", value: 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	err = ops.Apply(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), nil)
	if err == nil || !strings.Contains(err.Error(), `op[0] test "": `) || strings.Contains(err.Error(), "%!") {
		t.Errorf("test \"\": err = %v", err)
	}
}
