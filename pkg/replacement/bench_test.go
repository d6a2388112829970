package replacement

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// The benchmark input: 10,000 resources, of which 3,000 ConfigMaps hold a
// JSON document, and 10 replacements that each write into the JSON of all
// 3,000 (30,000 embedded edits), measured beside the identity pass (target:
// at most 1.5 times it).
const (
	benchResources  = 10000
	benchJSONConfig = 3000
)

func benchItems() string {
	var b strings.Builder
	jsonCMs := 0
	for i := 0; i < benchResources; i++ {
		switch {
		case i == 0:
			// The source of every replacement.
			b.WriteString("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: settings\n  data:\n")
			for k := 0; k < 10; k++ {
				fmt.Fprintf(&b, "    value%d: new-value-%d.example.com\n", k, k)
			}
		case i%3 == 1 && jsonCMs < benchJSONConfig:
			jsonCMs++
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app-%d
    namespace: team-%d
    labels:
      config: json
  data:
    config.json: |
      {
        "service": {
          "name": "app-%d",
          "endpoints": [
            {"name": "primary", "host": "old.example.com", "port": 8080},
            {"name": "secondary", "host": "old.example.com", "port": 8081}
          ]
        },
        "settings": {
          "s0": "old", "s1": "old", "s2": "old", "s3": "old", "s4": "old",
          "s5": "old", "s6": "old", "s7": "old"
        },
        "features": {"a": true, "b": false}
      }
`, i, i%20, i)
		case i%2 == 0:
			fmt.Fprintf(&b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-%d
    namespace: team-%d
    labels:
      app: app-%d
  spec:
    replicas: 2
    selector:
      matchLabels:
        app: app-%d
    template:
      metadata:
        labels:
          app: app-%d
      spec:
        containers:
        - name: app
          image: registry.example.com/app:1.0.%d
          ports:
          - containerPort: 8080
          env:
          - name: MODE
            value: production
`, i, i%20, i, i, i, i)
		default:
			fmt.Fprintf(&b, `- apiVersion: v1
  kind: Service
  metadata:
    name: app-%d
    namespace: team-%d
  spec:
    selector:
      app: app-%d
    ports:
    - name: http
      port: 80
      targetPort: 8080
`, i, i%20, i)
		}
	}
	return b.String()
}

func benchResourceList(items, config string) []byte {
	return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items + "functionConfig:\n" + config)
}

func benchConfig() string {
	paths := []string{
		`data.config\.json.service.endpoints.[name=primary].host`,
		`data.config\.json.service.endpoints.[name=secondary].host`,
		`data.config\.json.settings.s0`,
		`data.config\.json.settings.s1`,
		`data.config\.json.settings.s2`,
		`data.config\.json.settings.s3`,
		`data.config\.json.settings.s4`,
		`data.config\.json.settings.s5`,
		`data.config\.json.settings.s6`,
		`data.config\.json.settings.s7`,
	}
	var b strings.Builder
	b.WriteString("  apiVersion: fn.patchwork.dev/v1alpha1\n  kind: StructuredReplacement\n  metadata:\n    name: bench\n  replacements:\n")
	for k, p := range paths {
		fmt.Fprintf(&b, `  - source:
      kind: ConfigMap
      name: settings
      fieldPath: data.value%d
    targets:
    - select:
        kind: ConfigMap
        labelSelector: config=json
      fieldPaths:
      - %s
`, k, p)
	}
	return b.String()
}

func BenchmarkStructuredReplacement(b *testing.B) {
	in := benchResourceList(benchItems(), benchConfig())
	// Check once that the run really edits every JSON document.
	out, o, err := fnrun.RunBytes(Function, in)
	if err != nil || o.Failed {
		b.Fatal(err, o.Results)
	}
	if got := bytes.Count(out, []byte(`"host": "new-value-0.example.com"`)); got != benchJSONConfig {
		b.Fatalf("%d documents edited, want %d", got, benchJSONConfig)
	}
	if bytes.Contains(out, []byte(`"old"`)) {
		b.Fatal("some settings were not replaced")
	}
	fnruntest.BesideIdentity(b, Function, in)
}
