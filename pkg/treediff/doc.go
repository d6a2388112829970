// Package treediff says what changed between two YAML trees: a resource
// before a function's entry applied and after. It is the one answer to
// "what did this change?" that explaining an entry (a config's
// explain: true) and validating what it changed (validate:) share.
//
// Diff walks both trees and returns one Change per place: a scalar whose
// value changed, a key or list element added or removed, a value that
// became one of another kind, or, inside a string the caller says holds a
// document (Options.Document), the same below that string. A map or list
// that only changed inside is not a Change itself: what changed inside is.
//
// List elements are aligned as a merge aligns them: the element a function
// kept in place is the same node (Options.Origin finds it, for a tree
// copied before the change: Snapshot), else the element with the same merge
// keys (Options.Type, the list's schema), else an equal element, else the
// element at the same place among those left. Pure reordering is not a
// change. A list of scalars that is not a set changes as a whole.
//
// Each Change has its Path, with list elements by position, for code that
// edits the tree (the positions of the new list, or of the old one for an
// element removed), and Where, the path in the words of messages, with list
// elements by their merge keys ([name=app]) where they have them. Diff is
// bounded: trees larger than MaxNodes, or whose aliases expand past it, are
// an error rather than unbounded work.
package treediff
