// Package smp applies Kubernetes strategic merge patches to kyaml documents.
//
// It replaces kyaml's merge2 in this project. The merge works on yaml nodes in
// place, so everything the patch does not reach keeps its comments, key order
// and quoting, and it takes its list strategies from a *schema.Type: lists
// merge by (multi-field) keys, as sets, or are replaced. The rules, with
// examples and the differences from kustomize and apimachinery, are in
// docs/strategic-merge.md.
//
// The pieces are small on purpose: value.go dispatches on the kind of the
// patch node, maps.go merges maps, directives.go validates and applies the map
// directives, lists.go handles list-wide directives and replace/set lists,
// keyed.go merges lists by keys, order.go implements $setElementOrder,
// nodes.go holds node helpers, aliases.go repairs YAML aliases after a merge
// moved their anchors, path.go renders the location of errors,
// elements.go tells what became of keyed list elements (MergeElements,
// Tally), and fill.go makes a patch a set of defaults that fill only what a
// document lacks (Options.Default, a config's mode: default).
//
// Merge only reads the patch, so one patch may be applied to many documents
// concurrently.
//
// Whether a patch is valid depends only on the patch and the schema, never on
// the document it is applied to: Validate(patch, t) == nil guarantees that
// Merge(dst, patch, t) succeeds for every dst (short of a document whose own
// YAML aliases expand beyond reason). Callers applying one patch to many
// resources validate once, up front, and get all-or-nothing behaviour for free.
package smp
