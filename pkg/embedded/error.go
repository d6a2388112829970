package embedded

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Error is a failure to find or edit a value, and where it happened.
type Error struct {
	// Segment is the index, in the path given, of the segment being
	// resolved when it failed.
	Segment int
	Msg     string
	// Missing is set when the segment names a map key, or a list
	// element, that is not there and that Options.Create would add.
	Missing bool
	// Near is, for a missing map key, the key there nearest to it (a
	// likely typo), unless the text is secret; or "".
	Near string
	// NamedJSON is set when the text is valid YAML but not the JSON the
	// name of the key holding it (….json) says it is (Options.Format
	// overrides that).
	NamedJSON bool
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// of is the suffix naming the holder in messages.
func (d *doc) of() string {
	if len(d.where) == 0 {
		return ""
	}
	return " of " + d.where.String()
}

// errorf is an *Error at segment seg, naming the holder.
func (d *doc) errorf(seg int, format string, args ...any) error {
	return &Error{Segment: seg, Msg: fmt.Sprintf(format, args...) + d.of()}
}

// describe names a node for messages: "JSON object at line 3, column 5".
func (d *doc) describe(n *span.Node) string {
	line, col := d.Position(n.Start)
	what := n.Kind.String()
	if d.format == JSON {
		switch n.Kind {
		case span.Map:
			what = "object"
		case span.Seq:
			what = "array"
		}
	} else if n.Kind == span.Scalar {
		what = "scalar"
	}
	if n.Kind == span.Scalar {
		if n.Tag == span.StrTag {
			what = "string"
		} else {
			what = strings.TrimPrefix(n.Tag, "!!")
		}
	}
	return fmt.Sprintf("%s %s at line %d, column %d", d.format, what, line, col)
}

// whereName names the text in messages: the string at its place, if known.
func whereName(where fieldpath.Path) string {
	if len(where) == 0 {
		return "the text"
	}
	return "the string at " + where.String()
}

// showValue is how messages show a value: quoted and cut short, or, for a
// secret one, not at all.
func showValue(s string, secret bool) string {
	if secret {
		return hidden
	}
	return abbreviate(s)
}

// hidden stands for a secret value in messages.
const hidden = "a secret value (not shown)"

// abbreviate quotes s for a message, cut after 40 bytes.
func abbreviate(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}

// keyList lists the first keys of map n for a message about a key it lacks.
func keyList(n *span.Node) string {
	if len(n.Keys) == 0 {
		return " (it is empty)"
	}
	const most = 8
	var ks []string
	for _, k := range n.Keys {
		if len(ks) == most {
			ks = append(ks, "…")
			break
		}
		ks = append(ks, strconv.Quote(k.Value))
	}
	return " (keys: " + strings.Join(ks, ", ") + ")"
}

// shift moves an error found inside a nested string to the segment
// numbering of the enclosing path.
func shift(err error, by int) error {
	if e, ok := err.(*Error); ok {
		return &Error{Segment: e.Segment + by, Msg: e.Msg, Missing: e.Missing, Near: e.Near, NamedJSON: e.NamedJSON}
	}
	return err
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
