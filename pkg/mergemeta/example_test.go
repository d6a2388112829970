package mergemeta_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"

	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// A declared key makes a HelmRelease's values.env merge by name.
func ExampleMeta_TypeFor() {
	items, _ := kio.FromBytes([]byte("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: api}\n"))
	var warnings framework.Results
	meta, err := mergemeta.Load(fnconfig.Files{}, &warnings, mergemeta.Config{MergeKeys: []mergemeta.MergeKey{
		{Set: selector.Set{Target: &selector.Selector{Kind: "HelmRelease"}}, Path: "spec.values.env", Keys: []string{"name"}},
	}})
	if err != nil {
		panic(err)
	}
	t, _, err := meta.TypeFor(selector.NewIndex(items, nil), 0)
	if err != nil {
		panic(err)
	}
	strategy, keys := t.Field("spec").Field("values").Field("env").List()
	fmt.Println(strategy, keys)
	// Output: map [name]
}
