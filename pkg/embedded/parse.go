package embedded

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// doc is a parsed document and what an edit of it needs to know besides:
// where the text is held, whether it is secret, and the facts about its
// layout worked out along the way. The span tree is shared by every doc of
// the same text (Cache); the rest is the edit's own.
type doc struct {
	*span.Tree
	format Format
	// where names the place holding the text, for messages.
	where fieldpath.Path
	// secret is Options.Secret: messages must not show values.
	secret bool
	// jsonish marks YAML that looks like JSON but is not strict JSON
	// ({"a": b}); new strings and keys are double-quoted to match.
	jsonish bool
	// raw, when set, is the JSON text SetText writes instead of rendering
	// the value.
	raw string
	// givenType and givenStyle are Options.GivenType and GivenStyle of
	// the edit under way.
	givenType, givenStyle bool
	// layout is what the JSON text says of its layout (jsonLayout).
	layout *layoutFacts
	// keyQuote is how every key is quoted, if alike (keyQuoting); nil
	// until needed.
	keyQuote *span.Style
	// keyForms holds, by map, the forms of its keys that readers do not
	// take for strings (keyFormsOf).
	keyForms map[*span.Node]map[string]int
}

// parseCached parses text, or takes its parse from the cache. Documents
// are never modified once parsed, so sharing them is safe; only where, used
// in messages, differs between uses.
func parseCached(text string, opts Options) (*doc, error) {
	f := opts.format()
	if d := opts.Cache.get(text); d != nil && d.is(f) {
		dd := *d
		dd.where = opts.Where
		dd.secret = opts.Secret
		return &dd, nil
	}
	d, err := parseFor(text, opts.Where, opts.Secret, f)
	if err != nil {
		if e, ok := err.(*Error); ok && f == JSON && opts.Format == 0 {
			// JSON that does not parse (not a scalar) but would as YAML:
			// the name is what makes it an error
			_, jerr := span.ParseJSON(text)
			_, yerr := span.ParseYAML(text)
			e.NamedJSON = jerr != nil && yerr == nil
		}
		return nil, err
	}
	if opts.Cache.get(text) == nil {
		opts.Cache.put(text, d)
	}
	return d, nil
}

// is reports whether the document was read as format f (0: as the text
// decided, which any document was).
func (d *doc) is(f Format) bool {
	return f == 0 || d.format == f && !d.jsonish
}

// parse reads text as JSON when it starts with { or [ and parses as JSON,
// and as YAML otherwise.
func parse(text string, where fieldpath.Path) (*doc, error) {
	return parseFor(text, where, false, 0)
}

// parseFor is parse for a text whose values messages must not show when
// secret is set, read as format f (0: as parse decides). Errors are
// *Error.
func parseFor(text string, where fieldpath.Path, secret bool, f Format) (*doc, error) {
	var d *doc
	var err error
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Msg: fmt.Sprintf("%s is empty: there is no JSON or YAML document to look into", whereName(where))}
	}
	switch {
	case f == JSON || f == YAML:
		if d, err = parseAs(text, f); err != nil {
			return nil, syntaxMessage(err, f, where, secret)
		}
	case looksLikeJSON(text):
		if d, err = parseAs(text, JSON); err != nil {
			// Not strict JSON; it may still be YAML in flow style
			// ({a: b}), which is worth a try before giving up.
			yd, yerr := parseAs(text, YAML)
			if yerr != nil {
				return nil, syntaxMessage(err, JSON, where, secret)
			}
			d = yd
			d.jsonish = true
		}
	default:
		if d, err = parseAs(text, YAML); err != nil {
			return nil, syntaxMessage(err, YAML, where, secret)
		}
	}
	d.where = where
	d.secret = secret
	if d.Root.Kind == span.Scalar {
		held := "the text " + abbreviate(text)
		if secret {
			held = hidden
		}
		return nil, &Error{Msg: fmt.Sprintf("%s holds %s, not a JSON or YAML map or list", whereName(where), held)}
	}
	return d, nil
}

// parseAs parses text as a document of format f.
func parseAs(text string, f Format) (*doc, error) {
	var t *span.Tree
	var err error
	if f == JSON {
		t, err = span.ParseJSON(text)
	} else {
		f = YAML
		t, err = span.ParseYAML(text)
	}
	if err != nil {
		return nil, err
	}
	return &doc{Tree: t, format: f}, nil
}

// looksLikeJSON reports whether text starts (after whitespace) with an object
// or an array, the only documents this package treats as JSON.
func looksLikeJSON(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	return t != "" && (t[0] == '{' || t[0] == '[')
}
