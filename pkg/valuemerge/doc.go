// Package valuemerge is the value merge: two documents held in strings
// merged into one, and the one writer of every merge and patch into a
// string.
//
// JSON and YAML values are merged by the project's one merge, package
// smp's strategic merge on yaml nodes: without declared lists that is RFC
// 7386 (maps merge key by key, recursively; lists and scalars in the
// overlay replace; a null deletes the key); the lists a config declares
// (schema.ListKeys, a config's mergeKeys) merge by key as a schema's lists
// do, and strategic merge's directives ($patch, $retainKeys,
// $setElementOrder/…) mean what they mean there. TOML merges tables by key
// and replaces other values; Java properties and kustomize env files take
// the overlay's keys.
//
// The base keeps its layout. Doc writes a document's new value as edits of
// its text through package embedded: only what differs is rewritten; key
// order, indentation, spacing, quoting, comments and blank lines elsewhere
// stay byte for byte; new keys and strings come after the existing ones in
// the base's style (quoted where it quotes every one); elements of a list
// merged by key stay where they are, removed ones go with the lines and
// comments they own; a list replaced keeps its block style. Package
// embedpatch writes multi-patch's patches into strings with it too.
// Merging the same overlay twice gives the same text as merging it once.
//
// Merge is the entry point; Check validates a value alone and ParseFormat
// reads a config's format field. Every result is checked before it is
// returned: read again, it must mean the merged value, or the merge fails
// rather than write something else. A merge the values cannot take, though
// both parse, is a MergeError. When a YAML merge cannot be written in place
// (the base is not a map, a value inherited through a << key goes), the
// merged nodes are written whole: order and comments kept, blank lines
// not. TOML is written as edits too, arrays of tables and inline tables
// included; a TOML merge that cannot be (a value inside an inline table
// becoming a table) is written whole by the TOML library, comments lost
// and keys sorted, and MergeText says so.
package valuemerge
