package embedded

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// parseCached parses text, or takes its parse from the cache. Span trees
// are never changed once parsed (but for JSON entries built when first
// asked for), so sharing them is safe; only where and secret, used in
// messages, differ between uses.
func parseCached(text string, opts Options) (*locate.Document, error) {
	f := opts.format()
	if d := opts.Cache.get(text); d != nil && is(d, f) {
		return d.Copy(opts.Where, opts.Secret), nil
	}
	d, err := parseFor(text, opts.Where, opts.Secret, f)
	if err != nil {
		if e, ok := err.(*Error); ok && f == JSON {
			// JSON that does not parse (not a scalar) but would as YAML:
			// the name, or the format given, is what makes it an error
			_, jerr := span.ParseJSON(text)
			_, yerr := span.ParseYAML(text)
			yamlNotJSON := jerr != nil && yerr == nil
			e.NamedJSON, e.GivenJSON = yamlNotJSON && opts.Format == 0, yamlNotJSON && opts.Format == JSON
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
func is(d *locate.Document, f Format) bool {
	return f == 0 || d.Format == f && !d.Jsonish
}

// parse reads text as JSON when it starts with { or [ and parses as JSON,
// and as YAML otherwise.
func parse(text string, where fieldpath.Path) (*locate.Document, error) {
	return parseFor(text, where, false, 0)
}

// parseFor is parse for a text whose values messages must not show when
// secret is set, read as format f (0: as parse decides). Errors are
// *Error.
func parseFor(text string, where fieldpath.Path, secret bool, f Format) (*locate.Document, error) {
	if strings.TrimSpace(text) == "" {
		return nil, &Error{Msg: fmt.Sprintf("%s is empty: there is no JSON or YAML document to look into", whereName(where))}
	}
	d, err := parseIn(text, where, secret, f)
	if err != nil {
		return nil, err
	}
	d.Where, d.Secret = where, secret
	if d.Root.Kind == span.Scalar {
		held := locate.Hidden
		if !secret {
			held = "the text " + locate.Abbreviate(text)
		}
		return nil, &Error{Msg: fmt.Sprintf("%s holds %s, not a JSON or YAML map or list", whereName(where), held)}
	}
	return d, nil
}

// parseIn reads text as format f, or, for f 0, as JSON when it looks like
// JSON and parses as JSON, else as YAML.
func parseIn(text string, where fieldpath.Path, secret bool, f Format) (*locate.Document, error) {
	if f != JSON && f != YAML && looksLikeJSON(text) {
		t, err := span.ParseJSON(text)
		if err == nil {
			return &locate.Document{Tree: t}, nil
		}
		// Not strict JSON; it may still be YAML in flow style ({a: b}),
		// which is worth a try before giving up.
		yt, yerr := span.ParseYAML(text)
		if yerr != nil {
			return nil, syntaxMessage(err, JSON, where, secret)
		}
		return &locate.Document{Tree: yt, Jsonish: true}, nil
	}
	if f != JSON {
		f = YAML
	}
	t, err := span.Parse(text, f)
	if err != nil {
		return nil, syntaxMessage(err, f, where, secret)
	}
	return &locate.Document{Tree: t}, nil
}

// looksLikeJSON reports whether text starts (after whitespace) with an object
// or an array, the only documents this package treats as JSON.
func looksLikeJSON(text string) bool {
	t := strings.TrimLeft(text, " \t\r\n")
	return t != "" && (t[0] == '{' || t[0] == '[')
}
