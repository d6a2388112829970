// Package hash computes the name suffix kustomize gives generated ConfigMaps
// and Secrets, byte for byte, so that the same content gets the same name
// whether kustomize or patchwork generated it.
//
// kustomize v5 hashes the JSON (Go encoding/json rules: sorted keys, HTML
// characters escaped) of a small object:
//
//	ConfigMap: {"binaryData": ..., "data": ..., "kind": "ConfigMap", "name": ""}
//	Secret:    {"data": ..., "kind": "Secret", "name": "", "stringData": ..., "type": ...}
//
// binaryData and stringData appear only when the resource has them; a
// missing data or type is the empty string. "name" is always empty: kustomize
// looks the name up under a key that never exists, so the name never counts
// and two generators with equal content share a suffix. The suffix is the
// first ten hex digits of the SHA-256 of that JSON with 0, 1, 3, a and e
// replaced (g, h, k, m, t) so that it never reads as a number or a word.
// Labels, annotations and immutable are not hashed.
//
// Suffix computes the suffix of a ConfigMap or Secret; Encode turns
// already-serialised bytes into one; IsSuffix tells whether a string could
// be one, TrimSuffix takes one off a name, and Hashed tells whether a
// resource's name ends in the suffix of its content.
package hash
