package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

// FuzzString plants secret values (given as stringData and as data) in a
// text and checks that no registered form survives anywhere outside a
// Marker, that text without any form comes out unchanged, and that the
// text between markers is the text of the input.
func FuzzString(f *testing.F) {
	f.Add("hunter2-very-secret", "", "v1 Secret ", "/db: did you mean ", "?")
	f.Add("pass", "c2VjcmV0LXRva2Vu", "", "", "")
	f.Add("a", "", "a", "a", "a")
	f.Add("user: admin\npassword: pa55word\n", "", "x", "pa55word", "y")
	f.Add("abcdef", "ZGVmZ2hp", "[", "ghi", "]")
	f.Add("acted", "", "<redacted>", "acted", "")
	f.Add("{\"k\": [\"tok-123\", {\"n\": 12345}]}", "", "tok-", "123 12345", "")
	f.Add("line1-x\r\nline2-y", "bGluZTEteA==", "line2-y", " ", "line1-x")
	f.Fuzz(func(t *testing.T, secret, data, a, b, c string) {
		var s Set
		s.Add(secret)
		s.AddBase64(data)
		decoded, _ := base64.StdEncoding.DecodeString(strings.TrimSpace(data))
		text := a + secret + b + base64.StdEncoding.EncodeToString([]byte(secret)) + data + string(decoded) + c
		forms := s.Forms()
		for _, in := range []string{text, a + b + c} {
			out := s.String(in)
			for _, frag := range strings.Split(out, Marker) {
				if !strings.Contains(in, frag) {
					t.Fatalf("fragment %q is not text of the input %q (output %q)", frag, in, out)
				}
				for _, f := range forms {
					if strings.Contains(frag, f) {
						t.Fatalf("form %q survives in %q (input %q, output %q)", f, frag, in, out)
					}
				}
			}
			found := false
			for _, f := range forms {
				if len(f) < MinLen {
					t.Fatalf("form %q is shorter than MinLen", f)
				}
				found = found || strings.Contains(in, f)
			}
			if !found && out != in {
				t.Fatalf("nothing to redact in %q, but got %q", in, out)
			}
		}
		// (the secret itself is one of the forms; it may still be seen
		// across a marker's edge, as in "<redacted>000" for ">000", which
		// shows nothing of it)
	})
}
