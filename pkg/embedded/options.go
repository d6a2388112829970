package embedded

import (
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Options tune Set and Get.
type Options struct {
	// Create adds missing map keys, list elements selected by [key=value]
	// or by the index just past the end, and replaces a null on the way
	// with the maps and lists the rest of the path needs.
	Create bool
	// Where names the place that holds the text, for messages:
	// data.config\.json in "no key "x" in the JSON object at line 1,
	// column 3 of data.config\.json".
	Where fieldpath.Path
	// Cache, if set, keeps parsed documents between calls: a string that
	// several replacements edit in turn is parsed once per version.
	Cache *Cache
	// GivenType makes a scalar written over another take the type of the
	// value given rather than keep the one it replaces (RFC 7386: the
	// overlay replaces): port: 80 set to the string "8080" becomes a
	// quoted string, not the number 8080.
	GivenType bool
	// GivenStyle writes YAML values in the style of the nodes given where
	// the document allows it: a map or list in flow style stays flow
	// ([a, b], {b: 1}) in a block document, and a string keeps its
	// quoting (plain, 'single', "double"; a new plain string in a
	// document that quotes every string is quoted as it does). Without
	// it, values take the style of what they replace, and new ones the
	// document's.
	GivenStyle bool
	// Secret keeps values out of messages: the text is, or is held in, a
	// Secret's value. Messages then name the place, never what is there.
	Secret bool
	// Format is the language of the text given: JSON or YAML. Unset, a
	// text held under a key whose name ends in .json (the last segment of
	// Where) is JSON, and an error unless it parses as JSON; any other
	// text is JSON when it starts with { or [ and parses as JSON, and
	// YAML otherwise. Strings nested in the text decide by their own key.
	Format Format
}

// format is the language the text must be in, 0 when the text decides.
func (o Options) format() Format {
	if o.Format != 0 {
		return o.Format
	}
	if namedJSON(o.Where) {
		return JSON
	}
	return 0
}

// namedJSON reports whether the text held at where is JSON by its name:
// the key holding it ends in .json (config.json, dashboard.JSON).
func namedJSON(where fieldpath.Path) bool {
	if len(where) == 0 {
		return false
	}
	last := where[len(where)-1]
	return last.Kind == fieldpath.Field && strings.HasSuffix(strings.ToLower(last.Key), ".json")
}

// nested returns the options for a string nested in the text at where:
// its format is decided by its own key.
func (o Options) nested(where fieldpath.Path) Options {
	o.Where, o.Format = where, 0
	return o
}

// whereSuffix is the suffix naming the holder in messages.
func (o Options) whereSuffix() string {
	if len(o.Where) == 0 {
		return ""
	}
	return " of " + o.Where.String()
}
