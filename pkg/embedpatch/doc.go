// Package embedpatch applies a patch to a JSON or YAML document held in a
// string — the prometheus.yml of a ConfigMap, the config.json of a Secret's
// stringData — and writes the result as surgical edits of the string
// (package embedded): bytes the patch does not change stay as they were,
// key order, indentation and YAML comments included, and new entries follow
// the document's layout.
//
// Three kinds of patch, as multi-patch's `embedded:` entries take them:
//
//   - merge (RFC 7386) is package valuemerge's merge, the one
//     merge-values-generator uses;
//   - json6902 applies RFC 6902 operations (package jsonpatch) whose paths
//     address the document's root;
//   - strategic merges with package smp, lists merging by the keys a
//     config declares (a *schema.Type), other lists being replaced.
//
// json6902 and strategic patches (and merge patches that only fill
// defaults) compute the new document on yaml nodes, then write the
// difference: a changed value where it changed, a new key after the others,
// a removed key with its lines, elements appended to a list; a list that
// loses or reorders elements is written whole. Every result is read back
// and compared with what the patch means before it is returned.
package embedpatch
