// Package embedded edits JSON and YAML documents held in strings — the
// config.json of a ConfigMap, the JSON of an annotation — surgically: only
// the bytes of the value replaced (or the entry added) change. Whitespace,
// indentation, key order, quoting, comments, a trailing newline and the
// later documents of a multi-document YAML string stay byte for byte.
//
// A document is JSON when it starts with { or [ and parses as JSON, and
// YAML otherwise. Paths are those of package fieldpath; a string reached
// with segments left is itself parsed, so edits nest (YAML holding JSON
// holding YAML...).
//
// New values are encoded for their host: JSON escaping, YAML quoting only
// where needed (keeping the quote style that was there when it can hold the
// new text; a new key or string quoted as the document quotes every key or
// string, when it does), and a number or boolean keeps its type when the
// new text reads as one. Created keys and elements follow the layout
// around them.
//
// Set writes values a Setter computes; SetText writes JSON text as it is
// given (a caller's own spelling and types); Delete removes map keys and
// list elements, with their separator or their lines and the comments
// they own; Get and GetText read
// values and their source text; Check tells whether a text is one this
// package can edit. Edit applies many such changes at once: one parse and
// one verification for the lot, which is what a merge touching hundreds of
// values needs; the single-change functions are Edit with one change.
//
// Every edit is verified: the result is parsed again and compared with the
// original, and an edit that would disturb anything but its target is
// refused with an error rather than returned.
//
// Inside, the work is done by layers, internal packages listed here from
// the bottom up, each of which imports only packages listed before it:
//
//	span        the text read into a tree of values that know their byte spans
//	scalartype  the type a written scalar takes (KeptTag)
//	locate      paths resolved in the tree; keys found as readers find them; Error
//	plan        changes worked out on one parse: what is replaced, added, deleted
//	encode      values spelled for JSON or YAML, in the document's layout
//	write       the plan as byte edits, and what each must read back as
//	verify      the result parsed again and compared with the original
//
// This package reads the text (with its Cache), runs plan, edits the
// documents nested in strings by calling itself, and hands the rest to
// write and verify.
package embedded
