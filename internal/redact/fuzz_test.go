package redact

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// FuzzString plants secret values (given as stringData and as data) in a
// text, whole, cut and escaped, and checks that no form of them (made
// here, independently of the package) nor any piece of Piece bytes of a
// form survives anywhere outside a Marker, that text without any form
// comes out unchanged, and that the text between markers is the text of
// the input.
func FuzzString(f *testing.F) {
	f.Add("hunter2-very-secret", "", "v1 Secret ", "/db: did you mean ", "?", uint8(9))
	f.Add("pass", "c2VjcmV0LXRva2Vu", "", "", "", uint8(0))
	f.Add("a", "", "a", "a", "a", uint8(1))
	f.Add("user: admin\npassword: pa55word\n", "", "x", "pa55word", "y", uint8(30))
	f.Add("abcdef", "ZGVmZ2hp", "[", "ghi", "]", uint8(3))
	f.Add("acted", "", "<redacted>", "acted", "", uint8(4))
	f.Add("{\"k\": [\"tok-123\", {\"n\": 12345}]}", "", "tok-", "123 12345", "", uint8(17))
	f.Add("line1-x\r\nline2-y", "bGluZTEteA==", "line2-y", " ", "line1-x", uint8(200))
	f.Add(`app "quoted" \secret`, "", "name: ", " (element 2)", "", uint8(12))
	f.Fuzz(func(t *testing.T, secret, data, a, b, c string, cut uint8) {
		var s Set
		s.Add(secret)
		s.AddBase64(data)
		decoded, err := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
		if err != nil {
			decoded = nil
		}
		q := strconv.Quote(secret)
		q = q[:int(cut)%len(q)]
		text := a + secret + b + base64.StdEncoding.EncodeToString([]byte(secret)) + data + string(decoded) + c + q
		forms, pieces := testForms(secret, asTop)
		fd, pd := testForms(string(decoded), asTop)
		fr, pr := testForms(data, asText)
		forms, pieces = append(append(forms, fd...), fr...), append(append(pieces, pd...), pr...)
		for _, in := range []string{text, a + b + c} {
			out := s.String(in)
			for _, frag := range strings.Split(out, Marker) {
				if !strings.Contains(in, frag) {
					t.Fatalf("fragment %q is not text of the input %q (output %q)", frag, in, out)
				}
				if f := survivor(frag, forms, pieces); f != "" {
					t.Fatalf("form %q survives in %q (input %q, output %q)", f, frag, in, out)
				}
			}
			if survivor(in, forms, pieces) == "" && out != in {
				t.Fatalf("nothing to redact in %q, but got %q", in, out)
			}
		}
	})
}

// survivor is a form found in text, or a piece of one; "" when none is.
func survivor(text string, forms, pieces []string) string {
	for _, f := range forms {
		if len(f) >= MinLen && strings.Contains(text, f) {
			return f
		}
	}
	for _, p := range pieces {
		for i := 0; i+Piece <= len(p); i++ {
			if strings.Contains(text, p[i:i+Piece]) {
				return p[i : i+Piece]
			}
		}
	}
	return ""
}

// How testForms takes a text.
const (
	asTop  = iota // a Secret's value: maybe a document, maybe base64 of text
	asLeaf        // a value found in another
	asText        // a data value as written: its own pieces
)

// testForms are the forms of v matched whole, and those matched by their
// pieces, as the package documentation defines them. A document's are
// those of its values, and itself and its lines whole.
func testForms(v string, as int) (whole, pieces []string) {
	if len(v) < MinLen {
		return nil, nil
	}
	if as == asText {
		return []string{v, strings.TrimSpace(v)}, []string{v}
	}
	if leaves, ok := documentOf(v); ok && as == asTop {
		whole = append([]string{v, strings.TrimSpace(v)}, testLines(v)...)
		for _, l := range leaves {
			w, p := testForms(l, asLeaf)
			whole, pieces = append(whole, w...), append(pieces, p...)
		}
		return whole, append(pieces, base64.StdEncoding.EncodeToString([]byte(v)))
	}
	all := append([]string{v}, testEscaped(v)...)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		all = append(all, enc.EncodeToString([]byte(v)))
	}
	whole, pieces = append(all, testLines(v)...), all
	if t := strings.TrimSpace(v); t != v {
		w, p := testForms(t, asLeaf)
		whole, pieces = append(whole, w...), append(pieces, p...)
	}
	if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v)); as == asTop && err == nil && utf8.Valid(b) {
		w, p := testForms(string(b), asLeaf)
		whole, pieces = append(whole, w...), append(pieces, p...)
	}
	return whole, pieces
}

// testEscaped are v escaped by Go, JSON and YAML, without their quotes.
func testEscaped(v string) []string {
	unq := func(q string) string { return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`) }
	out := []string{unq(strconv.Quote(v)), unq(strconv.QuoteToASCII(v)), strings.ReplaceAll(v, "'", "''")}
	if j, err := json.Marshal(v); err == nil {
		out = append(out, unq(string(j)))
	}
	if utf8.ValidString(v) {
		y, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.DoubleQuotedStyle, Value: v})
		if err == nil {
			out = append(out, unq(strings.TrimSuffix(string(y), "\n")))
		}
	}
	return out
}

func testLines(v string) []string {
	var out []string
	for _, l := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
		out = append(out, l, strings.TrimSpace(l))
	}
	return out
}
