package apply

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// BenchmarkBuiltin is what a run with an apply patch pays once: the
// built-in schema built from its generated tables.
func BenchmarkBuiltin(b *testing.B) {
	for b.Loop() {
		decodeBuiltin()
	}
}

// BenchmarkMerge merges the DNS port and a toleration into a Deployment:
// one resource, through yaml nodes.
func BenchmarkMerge(b *testing.B) {
	const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: dns}\nspec:\n  template:\n    spec:\n" +
		"      tolerations: [{key: a, operator: Exists}]\n      containers:\n      - name: dns\n        image: dns:1\n" +
		"        ports: [{containerPort: 53, protocol: UDP}]\n"
	p, err := ParsePatch(yaml.MustParse("spec: {template: {spec: {tolerations: [{key: b, operator: Exists}], " +
		"containers: [{name: dns, ports: [{containerPort: 53, protocol: TCP}]}]}}}"))
	if err != nil {
		b.Fatal(err)
	}
	t, err := Builtin().For("apps/v1", "Deployment")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := p.Merge(yaml.MustParse(deployment), t, nil); err != nil {
			b.Fatal(err)
		}
	}
}
