// Package inherit handles YAML's << key (`<<: *defaults`), through which a
// map inherits the entries of anchored maps. The YAML spec calls it the
// merge key; here it is inheritance, so that "merge keys" always means what
// a config's mergeKeys mean: the fields that identify a keyed list's
// elements. Our editors would otherwise take << for an ordinary key.
//
// A map that inherits values cannot be edited in place: deleting an
// inherited value leaves it inherited, and editing the anchored map changes
// every map that inherits from it. So an editor that meets << keys in a
// document it changes works on an expanded copy (Expand) and writes that
// back: the document means what the patch says, for every reader, at the
// cost of its anchors. A document the patch does not change keeps its
// spelling; Untag makes the encoder write << as it was read.
package inherit
