package suggest

import (
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	for in, want := range map[string]string{
		"app1-*":  "app1-.*",
		"*-web":   ".*-web",
		"app1-.*": "",
		"(a|b)*":  "",
		"web":     "",
	} {
		if got := Glob(in); got != want {
			t.Errorf("Glob(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMeant: the pattern meant by a glob or a one-sided anchor; nothing
// for a pattern that needs no help.
func TestMeant(t *testing.T) {
	for in, want := range map[string]string{
		"shop-*":  "shop-.*",
		"^shop-":  "shop-.*",
		"-api$":   ".*-api",
		"^a|b":    "(?:a|b).*",
		"^shop$":  "",
		"shop-.*": "",
		"shop":    "",
		"^":       "",
		`a\$`:     "",
	} {
		got, why, ok := Meant(in)
		if got != want || ok != (want != "") || ok && why == "" {
			t.Errorf("Meant(%q) = %q, %q, %v; want %q", in, got, why, ok, want)
		}
	}
}

// TestRegexp: each syntax error is told in RE2's words about the pattern
// alone, with the fix; a pattern that compiles has no problem.
func TestRegexp(t *testing.T) {
	for in, want := range map[string]string{
		"shop-(api|worker": `missing closing ) (every ( needs its ): close the group, or write \( for the character)`,
		"(?!istio).*":      "invalid or unsupported Perl syntax at `(?!` (Go regular expressions are RE2: no lookaround; use reject)",
		"(?<!a)b":          "(Go regular expressions are RE2: no lookaround; use reject)",
		"(?=a)":            "no lookaround",
		"*-api":            `(a pattern is a regular expression, not a shell glob: did you mean ".*-api"?)`,
		"[a-z":             `missing closing ] (a [ opens a character class`,
		"C++":              `invalid nested repetition operator at ` + "`++`",
		"a{2,1}":           "see https://github.com/google/re2/wiki/Syntax",
		"shop-.*":          "",
		"(?i)shop":         "",
	} {
		got := Regexp(in, "use reject")
		if want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("Regexp(%q) = %q, want %q in it", in, got, want)
		}
		if strings.Contains(got, "^(?:") {
			t.Errorf("Regexp(%q) = %q: the message names an anchored form the user never wrote", in, got)
		}
	}
}
