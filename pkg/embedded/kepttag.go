package embedded

import (
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// KeptTag is the type rule for any document, kyaml nodes included: the
// tag (!!str, !!int, !!float, !!bool, !!null) a scalar v takes when it is
// written where a scalar tagged oldTag was. oldTag is "" when nothing, or a
// map or list, was there.
func KeptTag(oldTag string, v *yaml.Node) string {
	text := v.Value
	want := v.ShortTag()
	if v.Tag == "" {
		want = span.StrTag
	}
	if oldTag != "" {
		switch oldTag {
		case span.IntTag, span.FloatTag:
			if isJSONNumber(text) {
				return numberTag(text)
			}
			return span.StrTag
		case span.BoolTag:
			if _, ok := boolWord(text); ok {
				return span.BoolTag
			}
			return span.StrTag
		case span.NullTag:
			// no type to keep: fall through to the source's
		default:
			return span.StrTag
		}
	}
	switch want {
	case span.IntTag, span.FloatTag:
		if isJSONNumber(text) {
			return numberTag(text)
		}
	case span.BoolTag:
		if _, ok := boolWord(text); ok {
			return span.BoolTag
		}
	case span.NullTag:
		return span.NullTag
	}
	return span.StrTag
}

// scalarTag returns the type a new scalar takes where old was (old is nil
// when the place is created). An existing number or boolean keeps its type
// when the new text reads as one ("port": 8080 replaced by "9090" stays a
// number); an existing string stays a string ("8080" stays quoted). Where
// nothing typed was (a new key, null, a map or list being replaced), the
// source's own type is used.
func scalarTag(old *span.Node, v *yaml.Node) string {
	if old != nil && old.Kind == span.Scalar {
		return KeptTag(old.Tag, v)
	}
	return KeptTag("", v)
}

// numberTag is the tag of a JSON number: a float when it has a fraction
// or an exponent.
func numberTag(s string) string {
	if strings.ContainsAny(s, ".eE") {
		return span.FloatTag
	}
	return span.IntTag
}

var jsonNumberRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// isJSONNumber reports whether s is a number in JSON's grammar, which YAML
// reads as a number too. Other YAML spellings (0x1F, +1, 1_000) are kept as
// strings rather than guessed at.
func isJSONNumber(s string) bool { return jsonNumberRE.MatchString(s) }

// boolWord returns the boolean s spells, in the spellings YAML 1.2 knows.
func boolWord(s string) (bool, bool) {
	switch s {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}
