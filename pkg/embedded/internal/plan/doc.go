// Package plan works out what a batch of changes does to a document, before
// a byte is written: which values are replaced and by what, which maps and
// lists gain or lose entries, and which strings hold documents that changes
// go on into. It resolves each change's path (package locate), calls its
// Setter, builds the maps and lists a created path needs, and refuses what
// cannot be done: changes that overlap, keys that clash, SetText where it
// cannot write.
//
// The Plan it returns is data: package write spells it as byte edits, and
// the caller edits the nested documents (with the plan's changes for each)
// before that.
package plan
