package embedded_test

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// The JSON of a ConfigMap's config.json, edited in place: only the bytes of
// the host change; the layout, the key order and the other values stay
// exactly as they were written.
func ExampleSet() {
	configJSON := `{
  "server": {"host": "localhost",   "port": 8080},
  "features": ["search", "export"]
}
`
	out, err := embedded.Set(configJSON, fieldpath.MustParse("server.host"), embedded.Options{},
		func(*yaml.Node) (*yaml.Node, error) {
			return yaml.NewStringRNode("api.prod.svc").YNode(), nil
		})
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// {
	//   "server": {"host": "api.prod.svc",   "port": 8080},
	//   "features": ["search", "export"]
	// }
}

// Two changes to YAML held in a string, made in one parse: the comments
// stay, and a new key, allowed by Create, follows the layout around it.
func ExampleEdit() {
	appYAML := `# application.yaml
server:
  port: 8080 # containerPort
logging:
  level: info
`
	setTo := func(value string) embedded.Setter {
		return func(*yaml.Node) (*yaml.Node, error) { return yaml.NewScalarRNode(value).YNode(), nil }
	}
	out, err := embedded.Edit(appYAML, embedded.Options{},
		embedded.Change{Path: fieldpath.MustParse("server.port"), Set: setTo("9090")},
		embedded.Change{Path: fieldpath.MustParse("logging.format"), Set: setTo("json"), Create: true},
	)
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// # application.yaml
	// server:
	//   port: 9090 # containerPort
	// logging:
	//   level: info
	//   format: json
}

// A path that does not lead anywhere: the error says where it stops, in
// which value, and what is there.
func ExampleGet() {
	_, err := embedded.Get(`{"server": {"host": "localhost"}}`, fieldpath.MustParse("server.hostname"),
		embedded.Options{Where: fieldpath.MustParse(`data.config\.json`)})
	fmt.Println(err)
	// Output:
	// no key "hostname" in the JSON object at line 1, column 12 of data.config\.json (keys: "host")
}

// A scrape job deleted from a prometheus.yml: the job takes its own
// comment, and the next job keeps its own, though both are indented like
// the jobs' keys.
func ExampleDelete() {
	prometheusYML := `scrape_configs:
- job_name: node
  scheme: https

  # the cluster's pods
- job_name: pods
  # role: endpoints
  kubernetes_sd_configs: [{role: pod}]

  # the ingresses, probed
- job_name: ingresses
  metrics_path: /probe
`
	out, err := embedded.Delete(prometheusYML, fieldpath.MustParse("scrape_configs.1"), embedded.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// scrape_configs:
	// - job_name: node
	//   scheme: https
	//
	//   # the ingresses, probed
	// - job_name: ingresses
	//   metrics_path: /probe
}
