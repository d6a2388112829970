package valuemerge

import (
	"strings"
	"testing"
)

func TestReadProperties(t *testing.T) {
	text := "# comment\n  ! another\n\na=1\nb : 2\nc 3\nd\n" +
		"e = first \\\n    second\\\n\tthird\n" +
		"f\\ key\\:x = v\\tw\\u00e9\\uD83D\\uDE00\\q\n" +
		"g=\\\n\n" + "h=\\\\\n" + "i=x\r\nj=y\rk=end\\"
	want := [][2]string{
		{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", ""},
		{"e", "first secondthird"}, // continuation lines lose their leading white space
		{"f key:x", "v\twé😀q"},
		{"g", ""}, {"h", `\`}, {"i", "x"}, {"j", "y"}, {"k", "end"},
	}
	es, err := readProperties(text, "base")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(es), len(want), es)
	}
	for i, e := range es {
		if e.key != want[i][0] || e.value != want[i][1] {
			t.Errorf("entry %d: %q=%q, want %q=%q", i, e.key, e.value, want[i][0], want[i][1])
		}
	}
	if _, err := readProperties("a=\\u12\n", "base"); err == nil || !strings.Contains(err.Error(), "line 1: malformed \\uXXXX escape") {
		t.Errorf("malformed escape: %v", err)
	}
}

func TestMergeProperties(t *testing.T) {
	base := "# Application settings\n" +
		"server.port = 8080\n" +
		"\n" +
		"# the database\n" +
		"db.url:jdbc:postgresql://localhost/app\n" +
		"db.pool   10\n" +
		"greeting=Hello, \\\n" +
		"    world\n" +
		"feature.x=on\n"
	overlay := "db.url = jdbc:postgresql://db.prod/app\n" +
		"greeting = Hello, \\\n  production\n" +
		"feature.x=on\n" +
		"# new in production\n" +
		"cache.ttl=300\n"
	want := "# Application settings\n" +
		"server.port = 8080\n" +
		"\n" +
		"# the database\n" +
		"db.url:jdbc:postgresql://db.prod/app\n" +
		"db.pool   10\n" +
		"greeting=Hello, \\\n  production\n" +
		"feature.x=on\n" +
		"# new in production\n" +
		"cache.ttl=300\n"
	got, err := Merge(Properties, base, overlay)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	// the lines the overlay does not change are the base's bytes
	for _, line := range []string{"# Application settings\n", "server.port = 8080\n\n# the database\n", "db.pool   10\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("lost %q", line)
		}
	}
	if again, err := Merge(Properties, got, overlay); err != nil || again != got {
		t.Errorf("not idempotent: %v\n%s", err, again)
	}
	// a key without a separator gains one; CRLF text gets CRLF lines
	if got, err := Merge(Properties, "a\r\nb=1", "a=2\nc=3\n"); err != nil || got != "a=2\r\nb=1\r\nc=3\n" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestMergeEnv(t *testing.T) {
	base := "\uFEFF# kustomize env file\nLOG_LEVEL=info\n  DB_HOST=localhost\r\nEMPTY\nQUOTED=\"a b\"\n"
	overlay := "DB_HOST=db.prod\nEMPTY=now set\nNEW=1\n"
	want := "\uFEFF# kustomize env file\nLOG_LEVEL=info\n  DB_HOST=db.prod\r\nEMPTY=now set\nQUOTED=\"a b\"\nNEW=1\n"
	got, err := Merge(Env, base, overlay)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

func TestLineErrors(t *testing.T) {
	cases := []struct {
		format        Format
		base, overlay string
		want          string
	}{
		{Properties, "a=1\nb=2\na=3\n", "a=4", `base value is not valid PROPERTIES at line 3: the key "a" is set twice (lines 1 and 3); remove one`},
		{Env, "A=1\n", "=x\n", "overlay value is not valid ENV: line 1: no key before '='"},
		{Env, "A=1\n", "# nothing\n", "overlay value is not valid ENV: the value sets no key"},
		{Properties, "a=1", "b=\\uZZZZ secret", "overlay value is not valid PROPERTIES at line 1: malformed \\uXXXX escape"},
	}
	for _, c := range cases {
		_, err := Merge(c.format, c.base, c.overlay)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q + %q: %v, want %q", c.base, c.overlay, err, c.want)
		}
	}
}
