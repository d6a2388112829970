package scalartype

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// Kept is the type rule for any document, kyaml nodes included: the tag
// (!!str, !!int, !!float, !!bool, !!null) a scalar v takes when it is
// written where a scalar tagged oldTag was. oldTag is "" when nothing, or a
// map or list, was there.
func Kept(oldTag string, v *yaml.Node) string {
	if oldTag != "" && oldTag != span.NullTag {
		return keptFrom(oldTag, v.Value)
	}
	// no type to keep: the value's own
	want := v.ShortTag()
	if v.Tag == "" {
		want = span.StrTag
	}
	switch want {
	case span.IntTag, span.FloatTag:
		if IsNumber(v.Value) {
			return numberTag(v.Value)
		}
	case span.BoolTag:
		if _, ok := Bool(v.Value); ok {
			return span.BoolTag
		}
	case span.NullTag:
		return span.NullTag
	}
	return span.StrTag
}

// keptFrom is Kept where a scalar of type oldTag (not null) was: a number
// or boolean stays one when text reads as one, and anything else is a
// string.
func keptFrom(oldTag, text string) string {
	switch oldTag {
	case span.IntTag, span.FloatTag:
		if IsNumber(text) {
			return numberTag(text)
		}
	case span.BoolTag:
		if _, ok := Bool(text); ok {
			return span.BoolTag
		}
	}
	return span.StrTag
}

// At returns the type a new scalar takes where old was (old is nil when
// the place is created). An existing number or boolean keeps its type
// when the new text reads as one ("port": 8080 replaced by "9090" stays a
// number); an existing string stays a string ("8080" stays quoted). Where
// nothing typed was (a new key, null, a map or list being replaced), the
// value's own type is used.
func At(old *span.Node, v *yaml.Node) string {
	if old != nil && old.Kind == span.Scalar {
		return Kept(old.Tag, v)
	}
	return Kept("", v)
}
