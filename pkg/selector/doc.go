// Package selector decides which resources a config entry targets.
//
// A Selector is kustomize's patch target plus the KEP's matchAnnotations:
// group, version, kind, name and namespace are regular expressions matched
// against the whole value; labelSelector and annotationSelector use the
// Kubernetes selector grammar; matchAnnotations requires exact values (any
// string, which the label grammar cannot express). Set fields are ANDed; an
// empty Selector matches everything.
//
// A Set is one config entry's selection: the union of its targets minus
// whatever a reject selector matches. CompileSet (or Compile, for one
// Selector) checks it once, with errors naming the selector and field;
// NewIndex reads every item's metadata once, and SetMatcher.Select returns
// the positions of the items selected. When nothing is selected, Explain
// says why and what was probably meant (a shell glob for a regular
// expression, a kind spelt otherwise, a name a typo away).
//
// Two rules keep selection safe and kustomize-compatible. The package's own
// bookkeeping (the Kptfile, local-config resources, the function's config)
// is guarded: only a target naming its kind and name selects it. And kind,
// name and namespace also match the IDs a resource had before kustomize
// renamed it (its previous-ID annotations), as kustomize's own selectors do.
package selector
