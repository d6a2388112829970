// Package embedpatch applies a patch to a JSON or YAML document held in a
// string — the prometheus.yml of a ConfigMap, the config.json of a Secret's
// stringData — and writes the result as surgical edits of the string:
// bytes the patch does not change stay as they were, key order,
// indentation and YAML comments included, and new entries follow the
// document's layout.
//
// Three kinds of patch, as multi-patch's `embedded:` entries take them:
//
//   - merge (RFC 7386) merges with package smp without a schema, as
//     merge-values-generator merges values;
//   - json6902 applies RFC 6902 operations (package jsonpatch) whose paths
//     address the document's root;
//   - strategic merges with package smp, lists merging by the keys a
//     config declares (a *schema.Type), other lists being replaced.
//
// Each computes the new document on a copy of its nodes (valuemerge.Doc);
// package valuemerge, the one writer of every merge and patch into a
// string, writes the difference: a changed value where it changed, a new
// key after the others, a removed key with its lines, elements a merge kept
// edited in place, removed ones taken out with their lines, new ones
// appended. Every result is read back and compared with the new document
// before it is returned.
package embedpatch
