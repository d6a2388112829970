package locate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
)

// Of is the suffix naming the holder in messages: " of data.config\.json".
func (d *Document) Of() string {
	if len(d.Where) == 0 {
		return ""
	}
	return " of " + d.Where.String()
}

// Errorf is an *Error at segment seg, naming the holder.
func (d *Document) Errorf(seg int, format string, args ...any) error {
	return &Error{Segment: seg, Msg: fmt.Sprintf(format, args...) + d.Of()}
}

// Describe names a node for messages: "JSON object at line 3, column 5".
func (d *Document) Describe(n *span.Node) string {
	line, col := d.Position(n.Start)
	return fmt.Sprintf("%s %s at line %d, column %d", d.Format, d.kindName(n), line, col)
}

// kindName is what Describe calls n: JSON's object and array, a scalar by
// its type.
func (d *Document) kindName(n *span.Node) string {
	switch {
	case n.Kind == span.Scalar && n.Tag == span.StrTag:
		return "string"
	case n.Kind == span.Scalar:
		return strings.TrimPrefix(n.Tag, "!!")
	case d.Format == span.JSON && n.Kind == span.Map:
		return "object"
	case d.Format == span.JSON && n.Kind == span.Seq:
		return "array"
	}
	return n.Kind.String()
}

// showValue is how messages show a value: quoted and cut short, or, for a
// secret one, not at all.
func showValue(s string, secret bool) string {
	if secret {
		return Hidden
	}
	return Abbreviate(s)
}

// Hidden stands for a secret value in messages.
const Hidden = "a secret value (not shown)"

// Abbreviate quotes s for a message, cut after 40 bytes.
func Abbreviate(s string) string {
	const max = 40
	if len(s) > max {
		s = s[:max] + "…"
	}
	return strconv.Quote(s)
}

// KeyList lists the first keys of map n for a message about a key it
// lacks; in a secret text, whose keys say what it holds, none.
func (d *Document) KeyList(n *span.Node) string {
	if len(n.Keys) == 0 {
		return " (it is empty)"
	}
	if d.Secret {
		return " (its keys are not shown: the text is secret)"
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
