package embedpatch

import (
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

const configJSON = `{
    "server": {
        "port": 8080,
        "hosts": ["a", "b"]
    },
    "log": {"level": "info"}
}
`

const prometheusYAML = `# managed by the platform team
global:
  scrape_interval: 30s   # keep in sync with the SLO
scrape_configs:
  # the app itself
  - job_name: app
    static_configs:
      - targets: ['app:9090']
  - job_name: node
    scrape_interval: 60s
`

func promType(t *testing.T) *schema.Type {
	t.Helper()
	ty, err := (*schema.Type)(nil).WithListKeys(schema.ListKeys{Path: fieldpath.MustParse("scrape_configs"), Keys: []string{"job_name"}})
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

func TestApply(t *testing.T) {
	for _, c := range []struct {
		name, text, patch string
		typ               Type
		fill              bool
		where             string
		schema            bool
		want              string
	}{{
		name:  "merge into JSON: only the new key is written, in the document's layout",
		typ:   Merge,
		text:  configJSON,
		where: `data.config\.json`,
		patch: `server: {tls: true}`,
		want: `{
    "server": {
        "port": 8080,
        "hosts": ["a", "b"],
        "tls": true
    },
    "log": {"level": "info"}
}
`,
	}, {
		name:  "merge written as JSON keeps its spelling",
		typ:   Merge,
		text:  configJSON,
		where: `data.config\.json`,
		patch: `{"log": {"level": "debug"}}`,
		want: `{
    "server": {
        "port": 8080,
        "hosts": ["a", "b"]
    },
    "log": {"level": "debug"}
}
`,
	}, {
		name:   "strategic into YAML: declared keys merge, comments stay",
		typ:    Strategic,
		schema: true,
		text:   prometheusYAML,
		patch: `
scrape_configs:
- job_name: node
  scrape_interval: 15s
- job_name: api
  static_configs:
  - targets: ['api:8080']
`,
		want: `# managed by the platform team
global:
  scrape_interval: 30s   # keep in sync with the SLO
scrape_configs:
  # the app itself
  - job_name: app
    static_configs:
      - targets: ['app:9090']
  - job_name: node
    scrape_interval: 15s
  - job_name: api
    static_configs:
      - targets: ['api:8080']
`,
	}, {
		name: "json6902 appends to a YAML list and removes a key",
		typ:  JSON6902,
		text: prometheusYAML,
		patch: `
- op: add
  path: /scrape_configs/-
  value: {job_name: api, metrics_path: /m}
- op: remove
  path: /scrape_configs/1/scrape_interval
`,
		want: `# managed by the platform team
global:
  scrape_interval: 30s   # keep in sync with the SLO
scrape_configs:
  # the app itself
  - job_name: app
    static_configs:
      - targets: ['app:9090']
  - job_name: node
  - job_name: api
    metrics_path: /m
`,
	}, {
		name:  "a default fills only what is missing",
		typ:   Merge,
		fill:  true,
		text:  configJSON,
		where: `data.config\.json`,
		patch: `{"server": {"port": 80, "tls": true}, "log": {"level": "warn", "format": "json"}}`,
		want: `{
    "server": {
        "port": 8080,
        "hosts": ["a", "b"],
        "tls": true
    },
    "log": {"level": "info", "format": "json"}
}
`,
	}, {
		name:  "an anchored value changed changes what its aliases stand for",
		typ:   Strategic,
		text:  "base: &b {a: 1}\nuse: *b\n",
		patch: "base: {c: 2}",
		want:  "base: &b {a: 1, c: 2}\nuse: *b\n",
	}, {
		// issue 28, item 14: a YAML date was an internal error in JSON
		name:  "a date into JSON is a string, as YAML readers converting to JSON write it",
		typ:   Merge,
		text:  `{"a": 1}`,
		patch: "b: 2001-12-14\nc: [!!timestamp 2002-01-01]",
		want:  `{"a": 1, "b": "2001-12-14", "c": ["2002-01-01"]}`,
	}, {
		// issue 28, item 14: YAML's own spellings stay in YAML
		name:  "infinity, NaN and binary data into YAML keep their type",
		typ:   Strategic,
		text:  "a: 1\nb: x\n",
		patch: "a: .inf\nc: -.Inf\nd: .nan\ne: !!binary aGVsbG8=",
		want:  "a: .inf\nb: x\nc: -.Inf\nd: .nan\ne: !!binary aGVsbG8=\n",
	}, {
		name:  "a patch that changes nothing returns the text as it is",
		typ:   JSON6902,
		text:  configJSON,
		patch: `[{op: test, path: /server/port, value: 8080}]`,
		want:  configJSON,
	}} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.typ, c.patch, c.fill)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{}
			if c.where != "" {
				o.Where = fieldpath.MustParse(c.where)
			}
			if c.schema {
				o.Type = promType(t)
			}
			got, err := p.Apply(c.text, o)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, c.want)
			}
			if c.typ == JSON6902 {
				return // operations are not idempotent (an add to /list/- appends again)
			}
			if again, err := p.Apply(got, o); err != nil || again != got {
				t.Errorf("not idempotent: %v\n%s", err, again)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	for _, c := range []struct {
		name, text, patch, where string
		typ                      Type
		secret                   bool
		format                   embedded.Format
		err                      string
	}{
		{name: "named json, holds YAML", typ: Merge, text: "a: 1\n", where: `data.config\.json`, patch: "a: 2",
			err: `the string at data.config\.json does not parse as JSON`},
		{name: "a scalar", typ: Merge, text: "just text", where: "data.x", patch: "a: 2",
			err: `the string at data.x holds the text "just text", not a JSON or YAML map or list`},
		{name: "a secret scalar", typ: Merge, text: "hunter2", where: "stringData.x", patch: "a: 2", secret: true,
			err: `holds a secret value (not shown)`},
		{name: "empty", typ: Strategic, text: "", where: "data.x", patch: "a: 2", err: `the string at data.x is empty`},
		{name: "json patch path typo", typ: JSON6902, text: configJSON, patch: `[{op: replace, path: /servr/port, value: 1}]`,
			err: `op[0] replace /servr/port: the document has no key "servr" (did you mean /server/port? keys there: log, server)`},
		{name: "json patch typo in a secret", typ: JSON6902, text: configJSON, secret: true, patch: `[{op: replace, path: /servr/port, value: 1}]`,
			err: `op[0] replace /servr/port: the document has no key "servr"`},
		{name: "declared key missing", typ: Strategic, text: prometheusYAML, patch: "scrape_configs: [{scrape_interval: 1s}]",
			err: `scrape_configs: element 0 lacks "job_name"`},
		{name: "a key read alike, spelled otherwise", typ: JSON6902, text: "000: a\n", patch: "[{op: add, path: /0, value: b}]",
			err: `the top of the document: the patch adds the key "0", which YAML readers take for the key "000" the document has`},
		{name: "a key that is not its text", typ: Strategic, text: "a: 1\n", patch: "0x1F: x",
			err: `the top of the document: the patch adds the key "0x1F", which YAML readers take for "31"; quote it in the patch`},
		{name: "format yaml forced on JSON-looking text", typ: Merge, text: `{"a": 1}`, format: embedded.YAML, patch: "b: 2", err: ""},
		// issue 28, item 14: values JSON cannot spell were an internal error
		{name: "infinity into JSON", typ: Merge, text: `{"a": 1}`, patch: "b: .inf",
			err: "the patch brings the number .inf, which a JSON document cannot hold (JSON has no infinity, NaN or binary data)"},
		{name: "NaN into JSON", typ: Strategic, text: `{"a": 1}`, patch: "a: .nan", err: "the patch brings the number .nan"},
		{name: "binary into JSON", typ: Merge, text: `{"a": 1}`, patch: "a: !!binary aGVsbG8=", err: "the patch brings binary data (!!binary)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse(c.typ, c.patch, false)
			if err != nil {
				t.Fatal(err)
			}
			o := Options{Secret: c.secret, Format: c.format}
			if c.where != "" {
				o.Where = fieldpath.MustParse(c.where)
			}
			if c.typ == Strategic {
				o.Type = promType(t)
			}
			_, err = p.Apply(c.text, o)
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("got %v, want %q", err, c.err)
			}
			if c.secret && err != nil && (strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "8080")) {
				t.Errorf("a secret value in the message: %v", err)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		typ   Type
		fill  bool
		patch string
		err   string
	}{
		{JSON6902, true, "[]", "mode: default fills what the document lacks; a JSON patch's operations say themselves what to do"},
		{Merge, false, "[a]", "a merge patch is a map"},
		{Strategic, false, "$patch: delete", "would delete the whole document"},
		{Merge, true, "a: null", "null (which deletes the field) cannot be part of a default"},
		{JSON6902, false, "[{op: jump, path: /a}]", `unknown op "jump"`},
		{0, false, "a: 1\n---\nb: 2\n", "a patch into strings is one document; this one has 2"},
		{0, false, "# nothing\n", "the patch is empty"},
	} {
		if _, err := Parse(c.typ, c.patch, c.fill); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %q: got %v, want %q", c.typ, c.patch, err, c.err)
		}
	}
}
