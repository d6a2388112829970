// Package valuemerge merges two documents held in strings: JSON and YAML
// with the semantics of RFC 7386 (JSON merge patch: maps merge key by key,
// recursively; lists and scalars in the overlay replace; a null in the
// overlay deletes the key), with the lists a field path names merged by key
// instead (KeyedList, jsonpatch.MergeValuesKeyed); TOML (tables merge by
// key, other values replace); Java properties and kustomize env files (the
// overlay's keys replace or add).
//
// The base keeps its layout. Only the parts the overlay changes are
// rewritten: key order, indentation, spacing, quoting, comments and blank
// lines elsewhere stay byte for byte; new keys come after the existing
// ones, written in the base's style (its indentation unit, JSON separators,
// YAML sequence indentation). Merging the same overlay twice gives the same
// text as merging it once.
//
// Merge is the entry point; Check validates a value alone and ParseFormat
// reads a config's format field. Every result is checked before it is
// returned: read again, it must mean what the merge means
// (jsonpatch.MergeValuesKeyed on decoded JSON, YAML and TOML; the merged
// keys and values of a line format), or the merge fails rather than write
// something else. A merge the values cannot take, though both parse, is a
// MergeError. When a YAML merge cannot be written in place, the merged
// nodes are written instead: order and comments kept, blank lines not; a
// TOML merge that cannot be is written whole by the TOML library: comments
// lost, keys sorted.
package valuemerge
