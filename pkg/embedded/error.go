package embedded

import (
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Error is a failure to find or edit a value, and where it happened. Its
// fields:
//
//   - Segment is the index, in the path given, of the segment being
//     resolved when it failed;
//   - Msg is the message;
//   - Missing is set when the segment names a map key, or a list element,
//     that is not there and that Options.Create would add;
//   - Near is, for a missing map key, the key there nearest to it (a
//     likely typo), unless the text is secret; or "";
//   - NamedJSON is set when the text is valid YAML but not the JSON the
//     name of the key holding it (….json) says it is (Options.Format
//     overrides that);
//   - GivenJSON is set when the text is valid YAML but not JSON, the
//     format Options.Format gave;
//   - Ambiguous is set when a map in the text gives a key twice (or spells
//     it two ways readers take for one key): which one an edit means
//     cannot be told.
//
// Every layer of an edit reports its failures in this one type, which
// lives with the lowest of them (locating).
type Error = locate.Error

// FormatHint says what to do about err when the text is YAML, not the JSON
// its key's name (….json) or the format given says it is: field names the
// caller's setting of the format ("format", "options.format"). "" for any
// other error.
func FormatHint(err error, field string) string {
	var e *Error
	switch {
	case !errors.As(err, &e):
	case e.NamedJSON:
		return fmt.Sprintf(" (the key's name ends in .json, so the value must be JSON; if it is YAML, set %s: yaml)", field)
	case e.GivenJSON:
		return fmt.Sprintf(" (the text is YAML, not JSON: set %s: yaml, or leave %s out and the text decides)", field, field)
	}
	return ""
}

// whereName names the text in messages: the string at its place, if known.
func whereName(where fieldpath.Path) string {
	if len(where) == 0 {
		return "the text"
	}
	return "the string at " + where.String()
}

// syntaxMessage says where a text fails to parse as format f. For a secret
// text the parser's own words stay out: they may quote what is there.
func syntaxMessage(err error, f Format, where fieldpath.Path, secret bool) error {
	se, ok := err.(*span.SyntaxError)
	if !ok {
		return &Error{Msg: err.Error()}
	}
	msg := se.Msg
	if secret {
		msg = "what is there is not shown (the text is secret)"
	}
	line, col := se.Position()
	switch {
	case line == 0:
		return &Error{Msg: fmt.Sprintf("%s does not parse as %s: %s", whereName(where), f, msg)}
	case col == 0:
		return &Error{Msg: fmt.Sprintf("%s does not parse as %s: line %d: %s", whereName(where), f, line, msg)}
	}
	return &Error{Msg: fmt.Sprintf("%s does not parse as %s: line %d, column %d: %s", whereName(where), f, line, col, msg)}
}
