package patch_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/patch"
)

// A multi-patch entry's text, two documents without a type: the map is a
// strategic merge patch, the list a JSON patch.
func ExampleParse() {
	docs, err := patch.Parse(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec: {replicas: 3}
---
- {op: add, path: /metadata/labels, value: {tier: web}}
`, patch.Options{Into: patch.Resource})
	if err != nil {
		panic(err)
	}
	res := yaml.MustParse("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 1}\n")
	for _, d := range docs {
		if _, err := d.Apply(res, patch.Types{}, nil); err != nil {
			panic(err)
		}
		fmt.Println(d.Type, "/", d.Type.Short())
	}
	fmt.Print(res.MustString())
	// Output:
	// StrategicMergePatch / strategic
	// JsonPatch / json6902
	// apiVersion: apps/v1
	// kind: Deployment
	// metadata: {name: api, labels: {tier: web}}
	// spec: {replicas: 3}
}

// Either name of a type is accepted, wherever the patch goes.
func ExampleParseType() {
	for _, s := range []string{"json6902", "MergePatch", "Strategic", "smp"} {
		t, err := patch.ParseType(s)
		fmt.Println(t, err)
	}
	// Output:
	// JsonPatch <nil>
	// MergePatch <nil>
	// StrategicMergePatch <nil>
	// Type(0) type: unknown patch type "smp" (want StrategicMergePatch or strategic; JsonPatch or json6902; MergePatch or merge; ApplyPatch or apply)
}
