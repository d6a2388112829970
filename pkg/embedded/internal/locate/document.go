package locate

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Document is a parsed document and what finding things in it, and
// telling about them, needs besides: where the text is held and whether it
// is secret. The span tree may be shared by every Document of the same
// text; the rest is one use's own.
type Document struct {
	*span.Tree
	// Where names the place holding the text, for messages.
	Where fieldpath.Path
	// Secret keeps values out of messages.
	Secret bool
	// Jsonish marks YAML that looks like JSON but is not strict JSON
	// ({"a": b}): new strings and keys are double-quoted to match.
	Jsonish bool
	// keyForms holds, by map, the forms of its keys that readers do not
	// take for strings (keyFormsOf).
	keyForms map[*span.Node]map[string]int
}

// Copy returns a Document of the same text and tree for another use, held
// at where.
func (d *Document) Copy(where fieldpath.Path, secret bool) *Document {
	return &Document{Tree: d.Tree, Where: where, Secret: secret, Jsonish: d.Jsonish}
}
