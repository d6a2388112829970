package generator

import (
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestMergeOptions(t *testing.T) {
	global := &Options{Labels: map[string]string{"a": "g", "b": "g"}, Annotations: map[string]string{"x": "g"}, Immutable: true}
	local := &Options{Labels: map[string]string{"a": "l"}, DisableNameSuffixHash: true}
	got := mergeOptions(local, global)
	want := Options{Labels: map[string]string{"a": "l", "b": "g"}, Annotations: map[string]string{"x": "g"}, DisableNameSuffixHash: true, Immutable: true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if local.Labels["b"] != "" {
		t.Error("mergeOptions changed the generator's own options")
	}
	if got := mergeOptions(nil, nil); !reflect.DeepEqual(got, Options{}) {
		t.Errorf("no options: %+v", got)
	}
}

func TestEntries(t *testing.T) {
	es, _, err := entries(yaml.MustParse(`apiVersion: builtin
kind: SecretGenerator
metadata: {name: creds, namespace: apps}
type: kubernetes.io/basic-auth
literals: [username=admin]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].kind != "Secret" || es[0].args.Name != "creds" || es[0].args.Namespace != "apps" || es[0].args.Type != "kubernetes.io/basic-auth" {
		t.Errorf("builtin SecretGenerator: %+v", es)
	}
	es, _, err = entries(yaml.MustParse(`apiVersion: fn.patchwork.dev/v1alpha1
kind: MergeValuesGenerator
metadata: {name: x}
secretGenerator: [{name: s}]
configMapGenerator: [{name: a}, {name: b, literals: [{k.json: '{"a": 1}'}, "k2=v"]}]
`))
	if err != nil {
		t.Fatal(err)
	}
	var where []string
	for _, e := range es {
		where = append(where, e.where+"="+e.kind+"/"+e.args.Name)
	}
	if want := []string{"configMapGenerator[0]=ConfigMap/a", "configMapGenerator[1]=ConfigMap/b", "secretGenerator[0]=Secret/s"}; !reflect.DeepEqual(where, want) {
		t.Errorf("order %q, want %q", where, want)
	}
	l := es[1].args.Literals
	if l[0].Key != "k.json" || l[0].Value != `{"a": 1}` || l[0].IsRaw || !l[1].IsRaw || l[1].Raw != "k2=v" {
		t.Errorf("literals %+v", l)
	}
	for cfg, want := range map[string]string{
		"configMapGenerator: [{name: a, mergeValue: []}]":           `unknown field "mergeValue"`,
		"configMapGenerator: [{name: a, literals: [{a: 1, b: 2}]}]": "a literal is",
	} {
		_, _, err := entries(yaml.MustParse("apiVersion: fn.patchwork.dev/v1alpha1\nkind: MergeValuesGenerator\nmetadata: {name: x}\n" + cfg))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", cfg, err, want)
		}
	}
}
