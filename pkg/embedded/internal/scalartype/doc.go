// Package scalartype is package embedded's type rule: the tag (!!str,
// !!int, !!float, !!bool, !!null) a scalar takes where it is written. An
// existing number or boolean keeps its type when the new text reads as
// one; an existing string stays a string; where nothing typed was, the
// value's own type counts. Numbers are read in JSON's grammar and booleans
// in YAML 1.2's spellings, which every reader agrees on.
//
// It sits below both the planning of an edit (the field a new list element
// matches on takes its siblings' type) and its writing (every scalar
// written), and knows nothing of either.
package scalartype
