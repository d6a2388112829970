// Package jsonpatch applies RFC 6902 JSON patches and RFC 7386 merge patches
// to kyaml documents.
//
// The patch semantics are github.com/evanphx/json-patch/v5's, applied to the
// document's JSON form. The result is then folded back into the original
// yaml nodes (see sync.go), so that everything the patch did not change
// keeps its comments, key order and quoting.
//
// A patch is parsed once (ParseOps, ParseMergePatch), whether written in
// JSON or YAML, and applied to each document with Apply. ParseOps checks
// every operation up front, so a malformed one is named (op[2]) before any
// document is touched. When an operation fails, the document is left as it
// was and the error names the operation and, when its path does not
// resolve, where the path stops, what is there and the key most likely
// meant; in a Secret, the keys of data and stringData are never listed.
// A document holding YAML << keys is patched as its readers see it,
// with the merge keys expanded (package internal/mergekey).
package jsonpatch
