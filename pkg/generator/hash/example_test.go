package hash_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/generator/hash"
)

// The ConfigMap kustomize v5.8.2 generates from
//
//	configMapGenerator:
//	- name: simple
//	  literals: [a=1, b=2]
//
// is named simple-7gdc49gk6d. Suffix gives the same suffix for the same
// content; the name and labels do not count.
func ExampleSuffix() {
	cm := yaml.MustParse(`apiVersion: v1
kind: ConfigMap
metadata:
  name: simple
  labels:
    team: web
data:
  a: "1"
  b: "2"
`)
	suffix, err := hash.Suffix(cm)
	if err != nil {
		panic(err)
	}
	fmt.Println(cm.GetName() + "-" + suffix)
	fmt.Println(hash.IsSuffix(suffix), hash.IsSuffix("1234567890"))
	// Output:
	// simple-7gdc49gk6d
	// true false
}
