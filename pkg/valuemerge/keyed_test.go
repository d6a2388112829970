package valuemerge

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

func keyed(path string, keys ...string) schema.ListKeys {
	return schema.ListKeys{Path: fieldpath.MustParse(path), Keys: keys}
}

const promBase = `global:
  scrape_interval: 15s   # default
scrape_configs:
  # the node exporter
  - job_name: node
    static_configs:
      - targets: ['node:9100']

  # the app, scraped often
  - job_name: app
    scrape_interval: 5s
    metrics_path: /metrics

  - job_name: db
    static_configs:
      - targets: ['db:9187']
rule_files: [rules.yml]
`

func TestMergeKeysYAML(t *testing.T) {
	cases := []struct {
		name, base, overlay string
		keyed               []schema.ListKeys
		want                string
	}{{
		name: "merge, append and delete in place",
		base: promBase,
		overlay: `scrape_configs:
- job_name: app
  metrics_path: /internal/metrics
- job_name: node
  $patch: delete
- job_name: cache
  static_configs: [{targets: ['cache:9121']}]
`,
		keyed: []schema.ListKeys{keyed("scrape_configs", "job_name")},
		want: `global:
  scrape_interval: 15s   # default
scrape_configs:
  # the app, scraped often
  - job_name: app
    scrape_interval: 5s
    metrics_path: /internal/metrics

  - job_name: db
    static_configs:
      - targets: ['db:9187']
  - job_name: cache
    static_configs: [{targets: ['cache:9121']}]
rule_files: [rules.yml]
`,
	}, {
		name: "the last element removed",
		base: promBase,
		overlay: `scrape_configs: [{job_name: db, $patch: delete}]
`,
		keyed: []schema.ListKeys{keyed("scrape_configs", "job_name")},
		want: `global:
  scrape_interval: 15s   # default
scrape_configs:
  # the node exporter
  - job_name: node
    static_configs:
      - targets: ['node:9100']

  # the app, scraped often
  - job_name: app
    scrape_interval: 5s
    metrics_path: /metrics
rule_files: [rules.yml]
`,
	}, {
		name:    "without mergeKeys the list is replaced",
		base:    "a:\n- name: x\n  v: 1\n",
		overlay: "a:\n- name: z\n",
		want:    "a:\n- name: z\n",
	}, {
		name:    "a list the base lacks loses its $patch elements",
		base:    "b: 1\n",
		overlay: "a:\n- {name: x, $patch: delete}\n- {name: web, v: null, w: 2}\n",
		keyed:   []schema.ListKeys{keyed("a", "name")},
		want:    "b: 1\na:\n  - {name: web, w: 2}\n",
	}, {
		name: "nested keyed lists, by * and by [key=value]",
		base: `receivers:
- name: team-a
  webhook_configs:
  - url: http://a/1
    send_resolved: false
- name: team-b
  webhook_configs:
  - url: http://b/1
`,
		overlay: `receivers:
- name: team-a
  webhook_configs:
  - url: http://a/1
    send_resolved: true
  - url: http://a/2
- name: team-b
  webhook_configs:
  - url: http://b/2
`,
		keyed: []schema.ListKeys{keyed("receivers", "name"), keyed("receivers.[name=team-a].webhook_configs", "url")},
		want: `receivers:
- name: team-a
  webhook_configs:
  - url: http://a/1
    send_resolved: true
  - url: http://a/2
- name: team-b
  webhook_configs:
  - url: http://b/2
`,
	}, {
		name:    "several keys; an element matching on one key only is new",
		base:    "ports:\n- {port: 53, protocol: UDP, name: dns}\n- {port: 53, protocol: TCP, name: dns-tcp}\n",
		overlay: "ports:\n- {port: 53, protocol: TCP, name: dns-t}\n- {port: 53, protocol: SCTP}\n",
		keyed:   []schema.ListKeys{keyed("ports", "port", "protocol")},
		want:    "ports:\n- {port: 53, protocol: UDP, name: dns}\n- {port: 53, protocol: TCP, name: dns-t}\n- {port: 53, protocol: SCTP}\n",
	}}
	for _, c := range cases {
		got, err := Merge(YAML, c.base, c.overlay, c.keyed...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
		again, err := Merge(YAML, got, c.overlay, c.keyed...)
		if err != nil || again != got {
			t.Errorf("%s: not idempotent:\n%s\n%v", c.name, again, err)
		}
	}
}

func TestMergeKeysJSON(t *testing.T) {
	base := `{
  "receivers": [
    {"name": "team-a", "email": "a@example.com"},
    {"name": "team-b", "email": "b@example.com"}
  ],
  "route": {"receiver": "team-a"}
}
`
	cases := []struct{ name, overlay, want string }{{
		"merge and append in place",
		`{"receivers": [{"name": "team-b", "email": "b2@example.com"}, {"name": "team-c", "email": "c@example.com"}]}`,
		`{
  "receivers": [
    {"name": "team-a", "email": "a@example.com"},
    {"name": "team-b", "email": "b2@example.com"},
    {"name": "team-c", "email": "c@example.com"}
  ],
  "route": {"receiver": "team-a"}
}
`,
	}, {
		"delete: the element goes, the others stay as written",
		`{"receivers": [{"name": "team-a", "$patch": "delete"}]}`,
		`{
  "receivers": [
    {"name": "team-b", "email": "b@example.com"}
  ],
  "route": {"receiver": "team-a"}
}
`,
	}}
	for _, c := range cases {
		got, err := Merge(JSON, base, c.overlay, keyed("receivers", "name"))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got != c.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", c.name, got, c.want)
		}
	}
}

func TestMergeKeysErrors(t *testing.T) {
	cases := []struct {
		format        Format
		overlay, want string
	}{
		{YAML, "a:\n- v: 1\n", `the overlay's a: element 0 lacks "name": the list merges by [name] and "name" has no default, so the element cannot be matched; add "name" to it`},
		{YAML, "a:\n- x\n", "the overlay's a: element 0 is a string, but this list holds maps merged by [name]"},
		{YAML, "a:\n- {name: x, $patch: remove}\n", `the overlay's a[name=x]: unknown $patch directive "remove" (want merge, replace or delete)`},
		{JSON, `{"a": [{"name": {"x": 1}}]}`, `the overlay's a: element 0: merge key "name" must be a value, found a map`},
	}
	for _, c := range cases {
		base := "a:\n- name: x\n"
		if c.format == JSON {
			base = `{"a": [{"name": "x"}]}`
		}
		_, err := Merge(c.format, base, c.overlay, keyed("a", "name"))
		if _, ok := err.(*MergeError); !ok || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %T %v, want a MergeError with %q", c.overlay, err, err, c.want)
		}
	}
}
