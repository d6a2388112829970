// Package mergekey handles YAML merge keys (`<<: *defaults`), which our
// editors would otherwise take for an ordinary key named "<<".
//
// A map that inherits values through a merge key cannot be edited in place:
// deleting an inherited value leaves it inherited, and editing the anchored
// map changes every map that merges it. So an editor that meets merge keys
// in a document it changes works on an expanded copy (Expand) and writes
// that back: the document means what the patch says, for every reader, at
// the cost of its anchors. A document the patch does not change keeps its
// spelling; Untag makes the encoder write `<<` as it was read.
package mergekey
