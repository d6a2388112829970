package fnrun

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A key given twice, in an item or in the config, fails the run before the
// transform: an error naming the resource (not the config, which is no
// resource of the package), the map and the key (package dupkeys finds them).
func TestDuplicateKeysFailTheRun(t *testing.T) {
	in := strings.Replace(kptInput, "    name: settings\n", "    name: settings\n    name: other\n", 1)
	in = strings.Replace(in, "  kind: Test\n", "  kind: Test\n  kind: Test\n", 1)
	f := testFunction(func(*Request) error { t.Fatal("ran"); return nil })
	_, o, err := RunBytes(f, []byte(in))
	if err != nil || !o.Failed || len(o.Results) != 2 {
		t.Fatalf("%v %+v", err, o.Results)
	}
	item, config := o.Results[0], o.Results[1]
	if !strings.HasPrefix(item.Message, `v1 ConfigMap settings: metadata: the key "name" is given twice in metadata (lines 4 and 5 of the resource)`) ||
		item.ResourceRef == nil || item.Field.Path != "metadata" {
		t.Errorf("item: %+v", item)
	}
	if !strings.HasPrefix(config.Message, `functionConfig: fn.patchwork.dev/v1alpha1 Test t: the key "kind" is given twice at the top level (lines 2 and 3 of the resource)`) ||
		config.ResourceRef != nil {
		t.Errorf("config: %+v", config)
	}
}

// BenchmarkCheckDuplicateKeys measures the check alone beside the identity
// pass (read, check, write) on the same 1,000 Deployments, to show that it
// is a small part of what every run already pays.
func BenchmarkCheckDuplicateKeys(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%[1]d
    labels: {app: app-%[1]d, team: t}
    annotations: {config.kubernetes.io/path: apps/app-%[1]d.yaml}
  spec:
    replicas: 2
    selector:
      matchLabels: {app: app-%[1]d}
    template:
      metadata:
        labels: {app: app-%[1]d}
      spec:
        containers:
        - name: app
          image: example/app:%[1]d
          ports:
          - containerPort: 8080
          env:
          - {name: MODE, value: fast}
`, i)
	}
	sb.WriteString("functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}\n")
	in := []byte(sb.String())
	b.Run("identity", func(b *testing.B) {
		for b.Loop() {
			if _, o, err := RunBytes(Identity, in); err != nil || o.Failed {
				b.Fatal(err, o.Results)
			}
		}
	})
	b.Run("check-only", func(b *testing.B) {
		rl, err := yaml.Parse(string(in))
		if err != nil {
			b.Fatal(err)
		}
		items, err := rl.Pipe(yaml.Lookup("items"))
		if err != nil {
			b.Fatal(err)
		}
		var nodes []*yaml.RNode
		for _, n := range items.YNode().Content {
			nodes = append(nodes, yaml.NewRNode(n))
		}
		for b.Loop() {
			if err := checkDuplicateKeys(nil, nodes); err != nil {
				b.Fatal(err)
			}
		}
	})
}
