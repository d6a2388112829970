package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// A text under a key named *.json must be JSON (issue 20): YAML there, or
// JSON that only YAML's flow style takes, is an error with its line and
// column, unless Options.Format says otherwise. Strings nested in it
// decide by their own key.
func TestNamedJSON(t *testing.T) {
	set := func(*yaml.Node) (*yaml.Node, error) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: "x"}, nil
	}
	cache := NewCache()
	for _, c := range []struct {
		text, where, path string
		format            Format
		want, err         string
		named             bool
	}{
		{text: "a: 1\n", where: `data.config\.json`, path: "a",
			err: `the string at data.config\.json does not parse as JSON: line 1, column 1: unexpected 'a', expected a value`, named: true},
		{text: "{\"a\": 1,}", where: `data.c\.JSON`, path: "a",
			err: `the string at data.c\.JSON does not parse as JSON: line 1, column 9: unexpected '}', expected a string key`, named: true},
		{text: "a: 1\n", where: `data.config\.json`, path: "a", format: YAML, want: "a: x\n"},
		{text: "{\"a\": 1,}", where: `data.config\.yaml`, path: "a", want: "{\"a\": x,}"},
		{text: "{\"a\": 1}", where: `data.config\.json`, path: "a", want: "{\"a\": \"x\"}"},
		{text: "{\"a\": 1}", where: `data.config\.json`, path: "a", format: YAML, want: "{\"a\": x}"},
		// a scalar is no syntax error: no format to blame
		{text: "42", where: `data.n\.json`, path: "a", err: `the string at data.n\.json holds the text "42", not a JSON or YAML map or list`},
		// nested: the outer format does not reach the inner string
		{text: "{\"inner.json\": \"b: 1\"}", where: `data.outer`, path: `inner\.json.b`, format: JSON,
			err: `the string at data.outer.inner\.json does not parse as JSON: line 1, column 1: unexpected 'b', expected a value`, named: true},
		{text: "{\"inner.yaml\": \"b: 1\"}", where: `data.outer\.json`, path: `inner\.yaml.b`, want: "{\"inner.yaml\": \"b: x\"}"},
	} {
		// twice: the second parse comes from the cache
		for range 2 {
			got, err := Set(c.text, fieldpath.MustParse(c.path), Options{Where: fieldpath.MustParse(c.where), Format: c.format, Cache: cache}, set)
			if c.err != "" {
				e, ok := err.(*Error)
				if !ok || e.Msg != c.err || e.NamedJSON != c.named {
					t.Errorf("%q at %s: err %#v, want %q (named %v)", c.text, c.where, err, c.err, c.named)
				}
				continue
			}
			if err != nil || got != c.want {
				t.Errorf("%q at %s: got %q, %v; want %q", c.text, c.where, got, err, c.want)
			}
		}
	}
}

// A secret text that does not parse is not quoted, not even a character.
func TestSyntaxErrorsKeepSecrets(t *testing.T) {
	_, err := Get("{\"password\": s3cr3t}", fieldpath.MustParse("password"), Options{Where: fieldpath.MustParse(`stringData.db\.json`), Secret: true})
	want := `the string at stringData.db\.json does not parse as JSON: line 1, column 14: what is there is not shown (the text is secret)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// Neither JSON nor YAML: the name is not what makes it an error, and
// NamedJSON stays unset (format: yaml would not help).
func TestNamedJSONNeitherFormat(t *testing.T) {
	_, err := Get("{\"a\": [1,\n", fieldpath.MustParse("a"), Options{Where: fieldpath.MustParse(`data.c\.json`)})
	if e, ok := err.(*Error); !ok || e.NamedJSON {
		t.Errorf("err %#v", err)
	}
}

// YAML where the caller gave format JSON (issue 30): GivenJSON is set, and
// FormatHint says the text is YAML in the caller's words; the name's hint
// stays the name's.
func TestGivenJSON(t *testing.T) {
	_, err := Get("a: 1\n", fieldpath.MustParse("a"), Options{Where: fieldpath.MustParse(`data.app\.yaml`), Format: JSON})
	if e, ok := err.(*Error); !ok || !e.GivenJSON || e.NamedJSON {
		t.Fatalf("err %#v", err)
	}
	if got, want := FormatHint(err, "format"), " (the text is YAML, not JSON: set format: yaml, or leave format out and the text decides)"; got != want {
		t.Errorf("FormatHint: %q, want %q", got, want)
	}
	_, err = Get("a: 1\n", fieldpath.MustParse("a"), Options{Where: fieldpath.MustParse(`data.c\.json`)})
	if got, want := FormatHint(err, "options.format"), " (the key's name ends in .json, so the value must be JSON; if it is YAML, set options.format: yaml)"; got != want {
		t.Errorf("FormatHint: %q, want %q", got, want)
	}
	_, err = Get("{\"a\": [1,\n", fieldpath.MustParse("a"), Options{Where: fieldpath.MustParse(`data.c`), Format: JSON})
	if got := FormatHint(err, "format"); got != "" {
		t.Errorf("neither format: %q", got)
	}
}
