package scalartype

import (
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// IsNumber reports whether s is a number in JSON's grammar, which YAML
// reads as a number too. Other YAML spellings (0x1F, +1, 1_000) are kept
// as strings rather than guessed at.
func IsNumber(s string) bool { return jsonNumberRE.MatchString(s) }

// numberTag is the tag of a JSON number: a float when it has a fraction
// or an exponent.
func numberTag(s string) string {
	if strings.ContainsAny(s, ".eE") {
		return span.FloatTag
	}
	return span.IntTag
}

// Bool returns the boolean s spells, in the spellings YAML 1.2 knows.
func Bool(s string) (value, ok bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}
