package embedded

import (
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// Setter computes the value to write from the value found at a place (nil
// when the place is being created). It returns a scalar, whose Tag gives its
// type (!!str, !!int, !!float, !!bool, !!null; "" means !!str), or a map or
// list. Returned nodes are read, never kept or modified.
type Setter func(old *yaml.Node) (*yaml.Node, error)

// Set writes the value computed by set at every place the path leads to
// inside the document held in text, and returns the new text. Only the
// bytes of the values replaced (or the entries added) change: layout,
// comments, key order and later YAML documents stay as they are. The result
// is parsed again and compared with the original before it is returned, so
// an edit that would disturb anything else is an error instead.
func Set(text string, path fieldpath.Path, opts Options, set Setter) (string, error) {
	return Edit(text, opts, Change{Path: path, Set: set})
}

// SetText writes value, the text of a JSON value, byte for byte at every
// place the path leads to inside a JSON document: a caller that holds the
// value as someone wrote it (an overlay's [1, 2]) keeps their spelling and
// spacing, and the value's own types (a string "1" stays a string where a
// number was). Options.Create may add the last key or element, but not
// maps or lists on the way.
func SetText(text string, path fieldpath.Path, opts Options, value string) (string, error) {
	return Edit(text, opts, Change{Path: path, Text: value})
}
