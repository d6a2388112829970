package embedded

import "github.com/patchwork-krm/patchwork/pkg/fieldpath"

// Delete removes the map entries the path leads to: its last segment names
// a key, the segments before it lead to maps (wildcards and list matchers
// allowed). Only the bytes of each entry go: in JSON and YAML flow maps the
// entry and one separator (comments between entries stay), in YAML block
// maps the entry's lines with the comment block directly above its key. A
// map left without entries is written {} (a flow map keeping its comments:
// { # why\n}). Like Set, the result is verified before it is returned.
func Delete(text string, path fieldpath.Path, opts Options) (string, error) {
	return Edit(text, opts, Change{Path: path, Delete: true})
}
