package embedded

import (
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// New keys follow the document's key quoting when every key is quoted the
// same way, as jsonnet writes YAML (issue 20); otherwise they are plain.
func TestNewKeysFollowKeyQuoting(t *testing.T) {
	set := func(*yaml.Node) (*yaml.Node, error) {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: span.IntTag, Value: "1"}, nil
	}
	for _, c := range []struct{ text, path, want string }{
		{"\"a\":\n  \"b\": 0\n", "a.c", "\"a\":\n  \"b\": 0\n  \"c\": 1\n"},
		{"\"a\":\n  \"b\": 0\n", "a.c.d", "\"a\":\n  \"b\": 0\n  \"c\":\n    \"d\": 1\n"},
		{"'a':\n  'b': 0\n", "a.c", "'a':\n  'b': 0\n  'c': 1\n"},
		{"\"a\": {\"b\": 0}\n", "a.c", "\"a\": {\"b\": 0, \"c\": 1}\n"},
		{"\"a\":\n- \"n\": x\n", "a.[n=y].v", "\"a\":\n- \"n\": x\n- \"n\": \"y\"\n  \"v\": 1\n"},
		// mixed, or plain: new keys are plain
		{"\"a\":\n  b: 0\n", "a.c", "\"a\":\n  b: 0\n  c: 1\n"},
		{"'a':\n  \"b\": 0\n", "a.c", "'a':\n  \"b\": 0\n  c: 1\n"},
		{"a:\n  b: 0\n", "a.c", "a:\n  b: 0\n  c: 1\n"},
	} {
		got, err := Set(c.text, fieldpath.MustParse(c.path), Options{Create: true}, set)
		if err != nil || got != c.want {
			t.Errorf("%q + %s:\n got  %q, %v\n want %q", c.text, c.path, got, err, c.want)
		}
	}
}
