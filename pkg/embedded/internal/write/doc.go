// Package write turns a plan (package plan) into byte edits of the text:
// a value written over another in place, keeping the old one's style when
// it can; entries appended to a map or list in the layout of the ones
// there; entries deleted with their separator, or their lines and the
// comment above them; a map left empty written {}. Values are spelled by
// package encode. With every edit goes a Check, what the edited text must
// read back as there, for the verification that follows.
//
// It writes; it does not decide what to write (package plan did) nor
// trust itself (package verify parses the result again).
package write
