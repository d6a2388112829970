package valuemerge_test

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
)

// A production overlay merged into an application.yaml: maps merge key by
// key, a list is replaced, null deletes. Everything the overlay does not
// touch, comments and blank lines included, stays as it was written.
func ExampleMerge_yaml() {
	base := `# application.yaml
server:
  port: 8080   # the pod's containerPort
  hosts: [a.example.com]

logging:
  level: info
  format: text
`
	overlay := `server:
  hosts: [prod.example.com]
logging:
  level: warn
  format: null
tracing:
  enabled: true
`
	out, err := valuemerge.Merge(valuemerge.YAML, base, overlay)
	if err != nil {
		panic(err)
	}
	fmt.Print(out)
	// Output:
	// # application.yaml
	// server:
	//   port: 8080   # the pod's containerPort
	//   hosts: [prod.example.com]
	//
	// logging:
	//   level: warn
	// tracing:
	//   enabled: true
}

// JSON keeps its own spacing; null deletes "debug", and a new key follows
// the existing ones, in the base's style.
func ExampleMerge_json() {
	out, err := valuemerge.Merge(valuemerge.JSON,
		`{"db": {"host": "db.dev", "pool": 5}, "debug": true}`,
		`{"db": {"host": "db.prod", "timeoutSeconds": 30}, "debug": null}`)
	if err != nil {
		panic(err)
	}
	fmt.Println(out)
	// Output:
	// {"db": {"host": "db.prod", "pool": 5, "timeoutSeconds": 30}}
}

// TOML laid out as InfluxDB's sample config: the array of tables the
// overlay replaces is edited in place, its new key indented as the
// section's comments are, and every comment stays. MergeText says when a
// merge could not be written so (Lost is empty here).
func ExampleMergeText_toml() {
	base := `[meta]
  # Where the metadata/raft database is stored
  dir = "/var/lib/influxdb/meta"

[[graphite]]
  # Determines whether the graphite endpoint is enabled.
  # enabled = false
`
	m, err := valuemerge.MergeText(valuemerge.TOML, base, "[[graphite]]\nenabled = true\n")
	if err != nil {
		panic(err)
	}
	fmt.Print(m.Text)
	fmt.Printf("lost: %q\n", m.Lost)
	// Output:
	// [meta]
	//   # Where the metadata/raft database is stored
	//   dir = "/var/lib/influxdb/meta"
	//
	// [[graphite]]
	//   # Determines whether the graphite endpoint is enabled.
	//   # enabled = false
	//   enabled = true
	// lost: ""
}
