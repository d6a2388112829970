package embedded

import "github.com/patchwork-krm/patchwork/pkg/fieldpath"

// Delete removes the map entries, or list elements, the path leads to: its
// last segment names a key, or an element by its index; the segments
// before it lead to maps and lists (wildcards and list matchers allowed).
// Only the bytes of each entry go: in JSON and YAML flow collections the
// entry and one separator (comments between entries stay); in YAML block
// maps the entry's lines with the comment block directly above its key;
// in YAML block lists the element's lines with the comments it owns, the
// head directly above its dash (as deep as the dash or deeper) and the
// foot of settings commented out below it, every other comment staying
// where it is. A map left without entries is written {}, a list [] (a
// flow collection keeping its comments: { # why\n}). Like Set, the result
// is verified before it is returned.
func Delete(text string, path fieldpath.Path, opts Options) (string, error) {
	return Edit(text, opts, Change{Path: path, Delete: true})
}
