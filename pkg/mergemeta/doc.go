// Package mergemeta reads the merge metadata a config adds to what the
// strategic merge knows: schema files (`schemas:` — CRD manifests, OpenAPI
// v2/v3 documents) and the merge keys a user declares for lists no schema
// describes (`mergeKeys:` — a HelmRelease's spec.values.env by name). Both
// become ordinary pkg/schema metadata, so a declared list merges, reports
// errors and takes directives exactly as a built-in one; multi-patch and
// podspec-patch share this one reading of the two fields.
//
// Schema files are read through fnconfig's ReadTree: confined to the config's
// directory, size-limited, a directory's .yaml, .yml and .json files in
// order. A built-in kind's rules never change: a CRD or an OpenAPI
// definition of one is left out (as CRDs in the input are), and a
// declaration reaching a field of a built-in kind is an error.
//
// A declaration that applies to nothing fails nothing, and the lists it
// meant are replaced whole: after a run, Unapplied finds each one (a path
// that leads to no list, a selector that selects nothing, a schema file
// for the same kind in another group) for the function to say so.
package mergemeta
