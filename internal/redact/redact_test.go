package redact

import (
	"encoding/base64"
	"errors"
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
	if got := n.value(123456); got != Marker {
		t.Errorf("value(123456) = %v", got)
	}
	if got := n.value(42); got != 42 {
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
