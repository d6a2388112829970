package embedded

import (
	"errors"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }

func setTo(v *yaml.Node) Setter { return func(*yaml.Node) (*yaml.Node, error) { return v, nil } }

func TestSet(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		path   string
		value  *yaml.Node
		create bool
		want   string
	}{
		{
			name:  "seed story 1: JSON keeps its layout",
			text:  "{\"config\": {\n  \"id\": \"42\",\n  \"hostname\": \"REPLACE_TARGET_HOSTNAME\"\n}}",
			path:  "config.hostname",
			value: str("www.example.com"),
			want:  "{\"config\": {\n  \"id\": \"42\",\n  \"hostname\": \"www.example.com\"\n}}",
		},
		{
			name:  "a number stays a number",
			text:  `{"port": 8080, "name": "x"}` + "\n",
			path:  "port",
			value: str("9090"),
			want:  `{"port": 9090, "name": "x"}` + "\n",
		},
		{
			name:  "a number that is no longer one becomes a string",
			text:  `{"port": 8080}`,
			path:  "port",
			value: str("http"),
			want:  `{"port": "http"}`,
		},
		{
			name:  "a string stays a string",
			text:  `{"port": "8080"}`,
			path:  "port",
			value: &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: "9090"},
			want:  `{"port": "9090"}`,
		},
		{
			name:  "a boolean stays a boolean",
			text:  `{"on": false}`,
			path:  "on",
			value: str("true"),
			want:  `{"on": true}`,
		},
		{
			name:  "JSON escaping",
			text:  `{"a": "x"}`,
			path:  "a",
			value: str("say \"hi\"\n\\ <b>"),
			want:  `{"a": "say \"hi\"\n\\ <b>"}`,
		},
		{
			name:  "list matcher and index",
			text:  `{"servers": [{"name": "a", "port": 1}, {"name": "b", "port": 2}], "x": [10, 20]}`,
			path:  "servers.[name=b].port",
			value: str("3"),
			want:  `{"servers": [{"name": "a", "port": 1}, {"name": "b", "port": 3}], "x": [10, 20]}`,
		},
		{
			name:  "wildcard",
			text:  `{"servers": [{"host": "a"}, {"host": "b"}]}`,
			path:  "servers.*.host",
			value: str("c"),
			want:  `{"servers": [{"host": "c"}, {"host": "c"}]}`,
		},
		{
			name:  "seed story 3: YAML",
			text:  "global:\n  external_labels:\n    prometheus_env: TARGET_ENVIROMENT\nscrape_configs:\n  - job_name: \"prometheus\"\n    static_configs:\n      - targets: [\"localhost:9090\"]",
			path:  "global.external_labels.prometheus_env",
			value: str("dev"),
			want:  "global:\n  external_labels:\n    prometheus_env: dev\nscrape_configs:\n  - job_name: \"prometheus\"\n    static_configs:\n      - targets: [\"localhost:9090\"]",
		},
		{
			name:  "YAML keeps quotes and comments, quotes when needed",
			text:  "# head\na: 'x' # why\nb: plain # note\nc: \"q\"\n",
			path:  "b",
			value: str("yes"),
			want:  "# head\na: 'x' # why\nb: \"yes\" # note\nc: \"q\"\n",
		},
		{
			name:  "YAML single quotes kept",
			text:  "a: 'x' # why\n",
			path:  "a",
			value: str("it's"),
			want:  "a: 'it''s' # why\n",
		},
		{
			name:  "YAML later documents untouched",
			text:  "a: 1\n---\na: 1\n...\n",
			path:  "a",
			value: str("2"),
			want:  "a: 2\n---\na: 1\n...\n",
		},
		{
			name:  "YAML multi-line plain scalar",
			text:  "a: one\n  two\n  three\nb: x\n",
			path:  "a",
			value: str("four"),
			want:  "a: four\nb: x\n",
		},
		{
			name:  "YAML block scalar keeps its style",
			text:  "a: |\n  line 1\n  line 2\nb: x\n",
			path:  "a",
			value: str("new 1\nnew 2\n"),
			want:  "a: |\n  new 1\n  new 2\nb: x\n",
		},
		{
			name:  "YAML flow",
			text:  "a: {b: 1, c: [x, y]}\n",
			path:  "a.c.1",
			value: str("z,w"),
			want:  "a: {b: 1, c: [x, \"z,w\"]}\n",
		},
		{
			name:   "create in pretty JSON",
			text:   "{\n  \"a\": {\n    \"b\": 1\n  }\n}\n",
			path:   "a.c.d",
			value:  str("x"),
			create: true,
			want:   "{\n  \"a\": {\n    \"b\": 1,\n    \"c\": {\n      \"d\": \"x\"\n    }\n  }\n}\n",
		},
		{
			name:   "create in compact JSON",
			text:   `{"a":{"b":1}}`,
			path:   "a.c",
			value:  str("x"),
			create: true,
			want:   `{"a":{"b":1,"c":"x"}}`,
		},
		{
			name:   "create in empty JSON object",
			text:   `{"a": {}}`,
			path:   "a.c",
			value:  str("x"),
			create: true,
			want:   `{"a": {"c": "x"}}`,
		},
		{
			name:   "create list element by matcher in JSON",
			text:   `{"env": [{"name": "A", "value": "1"}]}`,
			path:   "env.[name=B].value",
			value:  str("2"),
			create: true,
			want:   `{"env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}`,
		},
		{
			name:   "create in block YAML",
			text:   "a:\n  b: 1 # c\nz: 2\n",
			path:   "a.c.d",
			value:  str("x"),
			create: true,
			want:   "a:\n  b: 1 # c\n  c:\n    d: x\nz: 2\n",
		},
		{
			name:   "create list element in block YAML",
			text:   "env:\n  - name: A\n    value: \"1\"\n",
			path:   "env.[name=B].value",
			value:  str("2"),
			create: true,
			want:   "env:\n  - name: A\n    value: \"1\"\n  - name: B\n    value: \"2\"\n",
		},
		{
			name:   "create in YAML flow map",
			text:   "a: {b: 1}\n",
			path:   "a.c",
			value:  str("x"),
			create: true,
			want:   "a: {b: 1, c: x}\n",
		},
		{
			name:   "create over an empty value",
			text:   "a:\nb: 1\n",
			path:   "a.c",
			value:  str("x"),
			create: true,
			want:   "a:\n  c: x\nb: 1\n",
		},
		{
			name:  "set an empty value",
			text:  "a:\nb: 1\n",
			path:  "a",
			value: str("x"),
			want:  "a: x\nb: 1\n",
		},
		{
			name:  "JSON held in YAML",
			text:  "settings: |\n  {\"host\": \"a\",\n   \"port\": 1}\nother: x\n",
			path:  "settings.host",
			value: str("b"),
			want:  "settings: |\n  {\"host\": \"b\",\n   \"port\": 1}\nother: x\n",
		},
		{
			name:  "YAML held in JSON",
			text:  `{"inner": "a: 1\nb: 2\n"}`,
			path:  "inner.b",
			value: str("3"),
			want:  `{"inner": "a: 1\nb: 3\n"}`,
		},
		{
			name:  "replace a map with a map",
			text:  "a:\n  b: 1\nc: 2\n",
			path:  "a",
			value: mapOf("x", mapOf("on", str("z"))),
			want:  "a:\n  x:\n    \"on\": z\nc: 2\n",
		},
		{
			name:  "replace a JSON scalar with a map",
			text:  "{\n  \"a\": 1\n}",
			path:  "a",
			value: mapOf("x", str("y")),
			want:  "{\n  \"a\": {\n    \"x\": \"y\"\n  }\n}",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Set(tt.text, fieldpath.MustParse(tt.path), Options{Create: tt.create}, setTo(tt.value))
			if err != nil {
				t.Fatalf("Set: %v", err)
			}
			if got != tt.want {
				t.Fatalf("Set:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		path   string
		create bool
		want   string
	}{
		{"missing key", `{"config": {"id": 1}}`, "config.host", false, `no key "host" in the JSON object at line 1, column 12 of data.x (keys: "id")`},
		{"bad JSON", "{\"a\": 1,\n \"b\": ]}", "a", false, "the string at data.x does not parse as JSON: line 2, column 7: unexpected ']', expected a value"},
		{"bad YAML", "a: b\n c: d\n", "a", false, "the string at data.x does not parse as YAML: line 2: mapping values are not allowed in this context"},
		{"not a document", "www.example.com", "a", false, `the string at data.x holds the text "www.example.com", not a JSON or YAML map or list`},
		{"empty", "  \n", "a", false, `the string at data.x is empty: there is no JSON or YAML document to look into`},
		{"index out of range", `{"a": [1]}`, "a.3", false, "index 3 is out of range: the JSON array at line 1, column 7 has 1 elements"},
		{"no match", `{"a": [{"name": "x"}]}`, "a.[name=y]", false, "no element of the JSON array at line 1, column 7 matches [name=y]"},
		{"matcher is whole-value", `{"a": [{"name": "xy"}]}`, "a.[name=x]", false, "no element"},
		{"field in a list", `{"a": [1]}`, "a.b", false, `the JSON array at line 1, column 7 is a list; "b" needs a map`},
		{"into a number", `{"a": 1}`, "a.b", false, "cannot look for b in the JSON int at line 1, column 7, which holds \"1\""},
		{"duplicate key", `{"a": 1, "a": 2}`, "a", false, `key "a" appears twice`},
		{"duplicate key spelled otherwise", "a: {True: 1, true: 2}\n", "a.true", false, `spelled "True" too`},
		{"duplicate key in a nested string", `{"s": "{\"k\": 1, \"k\": 2}"}`, "s.k", false, `key "k" appears twice`},
		{"alias", "x: &x {b: 1}\ny: *x\n", "y.b", false, "reaches the alias *x"},
		{"create through wildcard", `{"a": {}}`, "a.b.*", true, "cannot create what * stands for"},
		{"nested error names the holder", `{"s": "{\"a\": 1}"}`, "s.b", false, `no key "b" in the JSON object at line 1, column 1 of data.x.s (keys: "a")`},
		{"created key readers take for another", "00:\n", "0", true, `cannot create the key "0" in the YAML map at line 1, column 1 of data.x: YAML readers take the key "00" there for the same key`},
		{"created boolean key", "a: {True: 1}\n", "a.true", true, `YAML readers take the key "True" there for the same key`},
	}
	where := fieldpath.MustParse("data.x")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Set(tt.text, fieldpath.MustParse(tt.path), Options{Create: tt.create, Where: where}, setTo(str("v")))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, tt.want)
			}
			// a key given twice, alone, is marked: callers refuse it even
			// where they skip documents that lack what a path names
			var e *Error
			if !errors.As(err, &e) || e.Ambiguous != strings.HasPrefix(tt.name, "duplicate key") {
				t.Errorf("error %q: Ambiguous not set as it should be (%+v)", err, e)
			}
		})
	}
}

func TestGet(t *testing.T) {
	text := "a:\n  b: |\n    {\"c\": [{\"name\": \"x\", \"v\": 7}]}\n  list: [1, 2]\nanchors:\n  x: &x {b: through the alias}\n  y: *x\n"
	tests := []struct {
		path string
		want []string
	}{
		{"a.b.c.[name=x].v", []string{"!!int 7"}},
		{"a.list.*", []string{"!!int 1", "!!int 2"}},
		{"a.list.1", []string{"!!int 2"}},
		{"anchors.y.b", []string{"!!str through the alias"}},
	}
	for _, tt := range tests {
		got, err := Get(text, fieldpath.MustParse(tt.path), Options{})
		if err != nil {
			t.Errorf("Get(%s): %v", tt.path, err)
			continue
		}
		var s []string
		for _, n := range got {
			s = append(s, n.ShortTag()+" "+n.Value)
		}
		if strings.Join(s, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Get(%s) = %v, want %v", tt.path, s, tt.want)
		}
	}
}

// mapOf makes the map {key: v}.
func mapOf(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{str(key), v}}
}

// In a secret text the keys say what it holds: messages about a key given
// twice, spelled two ways readers take for one, or missing (where the keys
// there would be listed) name none of the text's keys.
func TestSecretKeysNotShown(t *testing.T) {
	tests := []struct {
		name, text, path, hidden string
		create                   bool
	}{
		{"duplicate key", "hunter2: a\nhunter2: b\n", "hunter2", "hunter2", true},
		{"duplicate key spelled otherwise", "0x50: a\n80: b\n", "80", "0x50", true},
		{"created key readers take for another", "0x50: a\n", "80", "0x50", true},
		{"missing key", "hunter2: {a: 1}\n", "missing", "hunter2", false},
		{"missing key deeper", "x: {hunter2: 1}\n", "x.missing", "hunter2", false},
		{"alias named", "a: &hunter2 {k: 1}\nb: *hunter2\n", "b.k", "hunter2", false},
		// the writer's own refusals: Set does not fail here, Delete does
		{"deleted key sharing its line", "db:\n  user: a\n  &pw hunter2: x\n", "db.hunter2", "hunter2", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{Create: tt.create, Secret: true, Where: fieldpath.MustParse("data.x")}
			var errs []error
			if !strings.HasPrefix(tt.name, "deleted") {
				_, err := Set(tt.text, fieldpath.MustParse(tt.path), o, setTo(str("v")))
				errs = append(errs, err)
			}
			if !tt.create {
				_, err := Delete(tt.text, fieldpath.MustParse(tt.path), o)
				errs = append(errs, err)
			}
			for _, err := range errs {
				if err == nil {
					t.Fatal("no error")
				}
				if strings.Contains(err.Error(), tt.hidden) || !strings.Contains(err.Error(), "secret") {
					t.Errorf("the message shows the secret text's key %q, or does not say why it does not: %v", tt.hidden, err)
				}
			}
		})
	}
}
