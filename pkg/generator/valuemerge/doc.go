// Package valuemerge deep-merges two documents held in strings, JSON or
// YAML, with the semantics of RFC 7386 (JSON merge patch): maps merge key by
// key, recursively; lists and scalars in the overlay replace; a null in the
// overlay deletes the key.
//
// The base keeps its layout. Only the parts the overlay changes are
// rewritten: key order, indentation, spacing, quoting, YAML comments and
// blank lines elsewhere stay byte for byte; new keys come after the existing
// ones, written in the base's style (its indentation unit, JSON separators,
// YAML sequence indentation). Merging the same overlay twice gives the same
// text as merging it once.
//
// Merge is the entry point; Check validates a value alone and ParseFormat
// reads a config's format field. Every result is checked before it is
// returned: parsed again, it must mean what jsonpatch.MergeValues (RFC 7386
// on the decoded values) says the merge means, or the merge fails rather
// than write something else. A merge the values cannot take, though both
// parse, is a MergeError. When a YAML merge cannot be written in place, the
// merged nodes are written instead: order and comments kept, blank lines
// not.
package valuemerge
