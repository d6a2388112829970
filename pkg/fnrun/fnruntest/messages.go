package fnruntest

import (
	"regexp"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// jargon matches what must never reach a user's message: fmt's complaints
// (%!w(<nil>)), nil values, Go type names and struct fields, pointers and
// stack traces — signs that an error from a library or a fmt verb leaked
// through unexplained.
var jargon = regexp.MustCompile(`%!|<nil>|interface \{\}|map\[[a-z]|\[\][a-z*]+|\bGo (struct|value|type)\b|\bstruct\b|\*[a-z][a-z0-9]*\.[A-Za-z]|\breflect\.|goroutine \d|0x[0-9a-f]{8,}`)

// Jargon returns the first piece of Go jargon in a message, or "".
func Jargon(msg string) string {
	return jargon.FindString(msg)
}

// CheckMessages fails the test for every result whose message holds Go
// jargon (see Jargon).
func CheckMessages(t testing.TB, rs framework.Results) {
	t.Helper()
	for _, r := range rs {
		if j := Jargon(r.Message); j != "" {
			t.Errorf("%s result holds Go jargon %q: %s", r.Severity, j, r.Message)
		}
	}
}
