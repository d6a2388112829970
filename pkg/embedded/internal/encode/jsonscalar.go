package encode

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// JSONScalar writes a scalar of the given type as JSON.
func JSONScalar(tag, value string) string {
	switch tag {
	case span.IntTag, span.FloatTag:
		return value
	case span.BoolTag:
		if b, _ := scalartype.Bool(value); b {
			return "true"
		}
		return "false"
	case span.NullTag:
		return "null"
	}
	return JSONQuote(value)
}

// JSONQuote writes s as a JSON string. Unlike encoding/json it leaves <, >
// and & alone: the text is configuration, not HTML.
func JSONQuote(s string) string {
	return doubleQuote(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}
