package redact

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		name    string
		secrets []string
		data    []string // AddBase64
		in, out string
	}{
		{name: "nothing registered", in: "a message", out: "a message"},
		{name: "plain value", secrets: []string{"hunter2"}, in: "ns hunter2/db", out: "ns <redacted>/db"},
		{name: "every occurrence", secrets: []string{"hunter2"}, in: "hunter2 and hunter2", out: "<redacted> and <redacted>"},
		{name: "base64 form", secrets: []string{"hunter2"}, in: "did you mean " + b64("hunter2") + "?", out: "did you mean <redacted>?"},
		{name: "base64 without padding", secrets: []string{"hunter2"}, in: "x" + strings.TrimRight(b64("hunter2"), "=") + "x", out: "x<redacted>x"},
		{name: "url base64", secrets: []string{"??>>??>>"}, in: base64.URLEncoding.EncodeToString([]byte("??>>??>>")), out: "<redacted>"},
		{name: "data as written and decoded", data: []string{b64("s3cr3t-token")}, in: b64("s3cr3t-token") + " s3cr3t-token", out: "<redacted> <redacted>"},
		{name: "data not base64", data: []string{"not base64!"}, in: "x not base64! x", out: "x <redacted> x"},
		{name: "short values stay", secrets: []string{"y", "on", "abc"}, in: "yes, on abc", out: "yes, on abc"},
		{name: "exactly MinLen", secrets: []string{"abcd"}, in: "xabcdx", out: "x<redacted>x"},
		{name: "overlapping values are one run", secrets: []string{"abcdef", "defghi"}, in: "[abcdefghi]", out: "[<redacted>]"},
		{name: "touching values are one run", secrets: []string{"abcd", "efgh"}, in: "abcdefgh", out: "<redacted>"},
		{name: "longest wins", secrets: []string{"pass", "password1"}, in: "password1 pass", out: "<redacted> <redacted>"},
		{name: "trimmed file content", secrets: []string{"file-secret\n"}, in: `"file-secret"`, out: `"<redacted>"`},
		{name: "a line of a multi-line value", secrets: []string{"line-one\nline-two\n"}, in: "got line-two", out: "got <redacted>"},
		{name: "a value inside YAML", secrets: []string{"user: admin\npassword: pa55word\n"}, in: "password holds pa55word", out: "password holds <redacted>"},
		{name: "keys inside YAML stay", secrets: []string{"user: admin\npassword: pa55word\n"}, in: "no field password", out: "no field password"},
		{name: "booleans inside YAML stay", secrets: []string{"tls: true\nkey: pa55word\n"}, in: "create: true", out: "create: true"},
		{name: "a value inside JSON", secrets: []string{`{"token": "tok-123"}`}, in: "tok-123", out: "<redacted>"},
		{name: "a whole line of YAML", secrets: []string{"user: admin\npassword: pa55word\n"}, in: "(password: pa55word)", out: "(<redacted>)"},
		{name: "unicode", secrets: []string{"pässwörd"}, in: "«pässwörd»", out: "«<redacted>»"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Set
			s.Add(c.secrets...)
			for _, d := range c.data {
				s.AddBase64(d)
			}
			if got := s.String(c.in); got != c.out {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.out)
			}
		})
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestNilSet(t *testing.T) {
	var s *Set
	if got := s.String("hunter2"); got != "hunter2" {
		t.Errorf("a nil set changed %q", got)
	}
	err := errors.New("x")
	if s.Error(err) != err {
		t.Error("a nil set changed an error")
	}
	s.Result(&framework.Result{Message: "m"})
}

// TestResult plants the secret in every field of a result that carries
// text.
func TestResult(t *testing.T) {
	const secret = "hunter2-secret"
	var s Set
	s.Add(secret)
	r := &framework.Result{
		Message:  "m " + secret,
		Severity: framework.Error,
		ResourceRef: &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: secret + "/v1", Kind: secret},
			NameMeta: yaml.NameMeta{Name: secret, Namespace: "ns-" + secret},
		},
		Field: &framework.Field{Path: "data." + secret, CurrentValue: secret, ProposedValue: map[string]any{secret: []any{secret, 7}}},
		File:  &framework.File{Path: secret + ".yaml", Index: 2},
		Tags:  map[string]string{secret: secret},
	}
	s.Result(r)
	text, err := yaml.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), secret) {
		t.Errorf("the secret survives:\n%s", text)
	}
	if r.ResourceRef.Name != Marker || r.ResourceRef.Namespace != "ns-"+Marker || r.File.Index != 2 {
		t.Errorf("identity: %+v, file %+v", r.ResourceRef, r.File)
	}
	// a value that is not text is replaced whole when its printed form
	// holds a secret
	var n Set
	n.Add("123456")
	if got := eachValueText(123456, n.String); got != Marker {
		t.Errorf("value(123456) = %v", got)
	}
	if got := eachValueText(42, n.String); got != 42 {
		t.Errorf("value(42) = %v", got)
	}
}

func TestError(t *testing.T) {
	var s Set
	s.Add("hunter2")
	err := errors.New("wrong node kind: node contents: hunter2")
	if got := s.Error(err).Error(); got != "wrong node kind: node contents: <redacted>" {
		t.Errorf("got %q", got)
	}
	clean := errors.New("nothing here")
	if s.Error(clean) != clean {
		t.Error("an error without a secret was replaced")
	}
}

// TestStructuredBounded: a hostile value cannot make registration walk
// without end (an alias bomb is not expanded, leaves are capped).
func TestStructuredBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"leaf-value\"]\n")
	for i := 0; i < 20; i++ {
		b.WriteString("b" + strings.Repeat("x", i) + ": &b" + strings.Repeat("x", i) + " [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n")
	}
	var s Set
	s.Add(b.String())
	if s.String("leaf-value") != Marker {
		t.Error("the leaf was not registered")
	}
	var many strings.Builder
	for i := 0; i < 3*maxLeaves; i++ {
		many.WriteString("- value-" + strings.Repeat("v", i%7) + "\n")
	}
	s.Add(many.String())
	if s.Len() > 20*maxLeaves {
		t.Errorf("%d forms registered", s.Len())
	}
}

// TestForms: every form of a value, and any piece of Piece bytes or more
// of one, is redacted: a value cut in a message, escaped by Go, JSON or
// YAML, in base64, decoded (issue 28, item 4).
func TestForms(t *testing.T) {
	const token = `tok-app-0123456789-abcdefghij-klmnopqrstuvwxyz-SECRET`
	const quoted = `app "quoted" \secret`
	for _, c := range []struct {
		name   string
		secret string
		in     string
		out    string
	}{
		{"cut at 40 bytes", token, `name: "` + token[:40] + `…"`, `name: "<redacted>…"`},
		{"a piece in the middle", token, "x " + token[10:18] + " y", "x <redacted> y"},
		{"a piece shorter than Piece stays", token, "tok-app", "tok-app"},
		{"Go escaped", quoted, fmt.Sprintf("name: %q", quoted), `name: "<redacted>"`},
		{"Go escaped, ASCII only", "pässwörd-über", fmt.Sprintf("%+q", "pässwörd-über"), `"<redacted>"`},
		{"JSON escaped", `<html> & "x"`, `{"v":"\u003chtml\u003e \u0026 \"x\""}`, `{"v":"<redacted>"}`},
		{"YAML double-quoted", "tab\there\u0085next", `v: "tab\there\Nnext"`, `v: "<redacted>"`},
		{"YAML single-quoted", "it's a secret", `v: 'it''s a secret'`, `v: '<redacted>'`},
		{"base64, cut", token, b64(token)[:20] + "…", "<redacted>…"},
		{"base64 of a short value", "pin1", "[" + b64("pin1") + "]", "[<redacted>]"},
		{"stringData holding base64 of text", b64("decoded-secret"), "it is decoded-secret", "it is <redacted>"},
		{"one line with ': ' is no document", "correct horse: battery staple", "horse: bat", "<redacted>"},
		{"a TOML value's token", "pin = 31337e99999\nuser = \"admin\"\n", `parsing "31337e99999": out of range`, `parsing "<redacted>": out of range`},
		{"keys of a document stay, its values' pieces go", "user: admin\npassword: pa55word-long-value\n", "no key password in password: pa55word-lo…", "no key password in password: <redacted>…"},
		{"a document's alias is its anchor's value", "a: &x anchored-value\nb: *x\n", "anchored-value", Marker},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s Set
			s.Add(c.secret)
			if got := s.String(c.in); got != c.out {
				t.Errorf("String(%q) = %q, want %q", c.in, got, c.out)
			}
		})
	}
}

// TestDataForms: a data value as written is matched by its pieces; what it
// decodes to by every form.
func TestDataForms(t *testing.T) {
	var s Set
	s.AddBase64(b64(`a "quoted" data value`))
	for in, want := range map[string]string{
		b64(`a "quoted" data value`)[:12]: Marker,
		`holds "a \"quoted\" data…"`:      `holds "<redacted>…"`,
	} {
		if got := s.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriter: what is written through the set's writer is redacted with
// the values registered by the time of the write.
func TestWriter(t *testing.T) {
	var s Set
	var b strings.Builder
	w := s.Writer(&b)
	fmt.Fprintf(w, "early hunter2-secret\n")
	s.Add("hunter2-secret")
	fmt.Fprintf(w, "late hunter2-secret\n")
	if want := "early hunter2-secret\nlate <redacted>\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestResultsOneBatch: results are redacted together, each text once.
func TestResultsOneBatch(t *testing.T) {
	var s Set
	s.Add("hunter2-secret")
	rs := framework.Results{{Message: "a hunter2-secret"}, {Message: "b"}, {Message: "a hunter2-secret", Tags: map[string]string{"k": "hunter2-secret…"}}}
	s.Results(rs)
	if rs[0].Message != "a <redacted>" || rs[1].Message != "b" || rs[2].Tags["k"] != "<redacted>…" {
		t.Errorf("got %q %q %v", rs[0].Message, rs[1].Message, rs[2].Tags)
	}
}
