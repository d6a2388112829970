package encode

import (
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// YAMLScalar writes a scalar of the given type for a YAML document. The
// style of old, the scalar being replaced (nil for a new value), is kept
// when it can hold the new text; a block scalar keeps old's indentation
// too.
func YAMLScalar(tag, value string, old *span.Node, inFlow bool, newline string) string {
	switch tag {
	case span.IntTag, span.FloatTag, span.BoolTag:
		return value
	case span.NullTag:
		return nullSpelling(value)
	}
	prefer := span.Plain
	if old != nil && old.Kind == span.Scalar {
		prefer = old.Style
	}
	if s, ok := inStyle(prefer, value, old, inFlow, newline); ok {
		return s
	}
	return YAMLDoubleQuote(value)
}

// nullSpelling is how a null is written: as value spells it, if that is a
// spelling of null, else "null".
func nullSpelling(value string) string {
	switch value {
	case "~", "null", "Null", "NULL": // a null keeps its spelling
		return value
	}
	return "null"
}

// inStyle writes a string in style when that style can hold it.
func inStyle(style span.Style, value string, old *span.Node, inFlow bool, newline string) (string, bool) {
	switch style {
	case span.Literal, span.Folded:
		return blockScalar(value, old, newline)
	case span.Single:
		if !strings.ContainsAny(value, "\n\r") {
			return YAMLSingleQuote(value)
		}
	case span.Plain:
		if plainOK(value, inFlow) {
			return value, true
		}
	}
	return "", false
}

// plainOK reports whether s can be written as a plain scalar and read
// back as the same string, by yaml.v3 and by YAML 1.1 readers alike
// ("yes" and "on" are booleans there, so they are quoted): the project's
// one rule, package scalar's.
func plainOK(s string, inFlow bool) bool {
	return scalar.CanBePlain(s, inFlow) && !scalar.NeedsQuotes(s)
}

// YAMLKey writes a new map key: plain when it can be, double-quoted
// otherwise.
func YAMLKey(k string, inFlow bool) string {
	if plainOK(k, inFlow) {
		return k
	}
	return YAMLDoubleQuote(k)
}

// GivenQuote writes v's string in v's own quoting when it can hold it
// (Options.GivenStyle).
func GivenQuote(v *yaml.Node, inFlow bool) (string, bool) {
	switch {
	case v.Style&yaml.DoubleQuotedStyle != 0:
		return YAMLDoubleQuote(v.Value), true
	case v.Style&yaml.SingleQuotedStyle != 0:
		if !strings.ContainsAny(v.Value, "\n\r") {
			return YAMLSingleQuote(v.Value)
		}
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if plainOK(v.Value, inFlow) {
			return v.Value, true
		}
	}
	return "", false
}
