// Package dupkeys finds the keys a YAML map gives twice (data: {k: v1,
// k: v2}), and says why that is refused. YAML forbids it and kustomize
// refuses it, but yaml.v3 parses it into nodes: an edit would land on the
// first key while every reader sees the second, and a second run would
// change the output. The runner (pkg/fnrun) refuses every item and config
// that has one, before a transform runs.
//
// Keys are compared by what readers resolve them to (package scalar): true
// and True, 80 and 0x50, ~ and null, 1 and 1.0 are one key. Lines are
// counted from the document's first line, which is the same whether kpt,
// kustomize or a file gave it.
package dupkeys
