package kv

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func files(m map[string]string) ReadFunc {
	return func(p string) ([]byte, error) {
		if s, ok := m[p]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
}

func keysValues(ps []Pair) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Key+"="+p.Value)
	}
	return out
}

func TestLoadOrderEnvsLiteralsFiles(t *testing.T) {
	got, err := Load(Sources{
		Files:    []string{"b.txt", "renamed=dir/c.txt"},
		Literals: []Pair{{Key: "lit", Value: "1", Source: "literals[0]"}},
		Envs:     []string{"a.env"},
	}, files(map[string]string{"a.env": "E=1\n", "b.txt": "bee", "dir/c.txt": "sea\n"}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"E=1", "lit=1", "b.txt=bee", "renamed=sea\n"}
	if !reflect.DeepEqual(keysValues(got), want) {
		t.Errorf("got %q, want %q", keysValues(got), want)
	}
}

func TestParseEnv(t *testing.T) {
	in := "\xef\xbb\xbfFOO=bar\n# comment\n   \n  BAZ=qux=quux\r\nEMPTY=\nNOEQ\nSPACES=  a b  \n\xef\xbb\xbfX=1\n"
	got, err := ParseEnv([]byte(in), "envs[0]")
	if err != nil {
		t.Fatal(err)
	}
	// Only the first line loses a byte order mark; a later one stays part of
	// the key (and then fails key validation in Load).
	want := []string{"FOO=bar", "BAZ=qux=quux", "EMPTY=", "NOEQ=", "SPACES=  a b  ", "\ufeffX=1"}
	if !reflect.DeepEqual(keysValues(got), want) {
		t.Errorf("got %q, want %q", keysValues(got), want)
	}
	if got[1].Source != "envs[0] line 4" {
		t.Errorf("source %q", got[1].Source)
	}
}

// TestParseEnvBOMAfterSpaces: as in kustomize, only the file's first bytes
// can be a byte order mark; after leading spaces U+FEFF (not white space) is
// the start of the key, which Load then rejects as a ConfigMap key.
func TestParseEnvBOMAfterSpaces(t *testing.T) {
	got, err := ParseEnv([]byte("  \ufeffX=1\n"), "envs[0]")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"\ufeffX=1"}; !reflect.DeepEqual(keysValues(got), want) {
		t.Errorf("got %q, want %q", keysValues(got), want)
	}
	_, err = Load(Sources{Envs: []string{"a.env"}}, files(map[string]string{"a.env": "  \ufeffX=1\n"}))
	if err == nil || !strings.Contains(err.Error(), `envs[0] (a.env) line 1: the key before '=' is not valid: it holds the character U+FEFF`) {
		t.Errorf("Load: error %v, want the character named", err)
	}
}

func TestParseEnvErrors(t *testing.T) {
	for in, want := range map[string]string{
		"A=1\n=oops\n": "envs[0] line 2",
		"A=\xff\xfe\n": "line 1: not valid UTF-8",
	} {
		_, err := ParseEnv([]byte(in), "envs[0]")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestParseLiteral(t *testing.T) {
	for in, want := range map[string][2]string{
		"a=1":          {"a", "1"},
		"a=b=c":        {"a", "b=c"},
		`q="  x  "`:    {"q", "  x  "},
		`q='x'`:        {"q", "x"},
		`q="x'`:        {"q", `"x'`},
		`q="`:          {"q", `"`},
		"e=":           {"e", ""},
		"j={\"a\": 1}": {"j", `{"a": 1}`},
	} {
		k, v, err := ParseLiteral(in)
		if err != nil || k != want[0] || v != want[1] {
			t.Errorf("ParseLiteral(%q) = %q, %q, %v; want %q", in, k, v, err, want)
		}
	}
	for _, bad := range []string{"novalue", "=v", ""} {
		if _, _, err := ParseLiteral(bad); err == nil {
			t.Errorf("ParseLiteral(%q) succeeded", bad)
		}
	}
}

func TestParseFileSource(t *testing.T) {
	for in, want := range map[string][2]string{
		"a/b/c.json":   {"c.json", "a/b/c.json"},
		"k=a/b/c.json": {"k", "a/b/c.json"},
	} {
		k, p, err := ParseFileSource(in)
		if err != nil || k != want[0] || p != want[1] {
			t.Errorf("ParseFileSource(%q) = %q, %q, %v", in, k, p, err)
		}
	}
	for _, bad := range []string{"=a", "k=", "a=b=c"} {
		if _, _, err := ParseFileSource(bad); err == nil {
			t.Errorf("ParseFileSource(%q) succeeded", bad)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	read := files(map[string]string{"a.env": "K=1\n", "K": "file"})
	for name, tc := range map[string]struct {
		src  Sources
		want string
	}{
		"duplicate across sources": {Sources{Envs: []string{"a.env"}, Literals: []Pair{{Key: "K", Value: "2", Source: "literals[0]"}}},
			`literals[0]: key "K" is already given by envs[0] (a.env) line 1`},
		"duplicate file key": {Sources{Literals: []Pair{{Key: "K", Value: "2", Source: "literals[0]"}}, Files: []string{"K"}},
			`files[0], file K: key "K" is already given by literals[0]`},
		"missing file":  {Sources{Files: []string{"nope.txt"}}, "files[0]: no such file"},
		"missing env":   {Sources{Envs: []string{"nope.env"}}, "envs[0]: no such file"},
		"invalid key":   {Sources{Literals: []Pair{{Key: "a b", Value: "1", Source: "literals[0]"}}}, `literals[0]: invalid key "a b"`},
		"dot-dot key":   {Sources{Literals: []Pair{{Key: "..x", Value: "1", Source: "literals[0]"}}}, "must not start with '..'"},
		"bad file spec": {Sources{Files: []string{"a=b=c"}}, "files[0]: file source"},
	} {
		_, err := Load(tc.src, read)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
	}
}

// Every file is read and every key checked: the error joins all that is
// wrong, and the pairs are those that loaded (issue 30: a generator with
// errors in two files reported only the first).
func TestLoadReportsEveryError(t *testing.T) {
	read := files(map[string]string{"ok.txt": "fine", "a.env": "K=1\n"})
	pairs, err := Load(Sources{
		Envs:     []string{"gone.env", "a.env"},
		Literals: []Pair{{Key: "K", Value: "2", Source: "literals[0]"}},
		Files:    []string{"missing.txt", "ok.txt", "a=b=c"},
	}, read)
	for _, want := range []string{"envs[0]: no such file", "files[0]: no such file", "files[2]: file source", `literals[0]: key "K" is already given by envs[1]`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in %v", want, err)
		}
	}
	if got := keysValues(pairs); !reflect.DeepEqual(got, []string{"K=1", "K=2", "ok.txt=fine"}) {
		t.Errorf("pairs %q", got)
	}
}
