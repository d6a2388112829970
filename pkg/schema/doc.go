// Package schema answers one question for the strategic merge engine: how does
// the list (or map) at this place in this kind of resource merge?
//
// The answer comes from tables generated from the Kubernetes
// structured-merge schema for the built-in types (nothing is parsed at
// start-up), from CustomResourceDefinitions (found in the ResourceList, or
// read from files), from OpenAPI documents (WithOpenAPI, $ref followed),
// and from the keys a user declares for lists no schema describes
// (Type.WithListKeys; Describes tells where a built-in kind's rules stand
// in the way).
// A nil *Type is valid everywhere and means "nothing known": lists are then
// replaced, maps merged, as kustomize does without a schema.
//
// Builtin is the schema of the built-in kinds (KubernetesVersion); WithCRDs
// extends it with the CRDs among a ResourceList's items, which may add kinds
// but never redefine a known one (those are returned, as IgnoredCRD
// values, for the caller to warn about). Lookup gives a kind's root Type, whose Field,
// Element and List walk down to a list's strategy and merge keys. A Schema
// is read-only once built and safe for concurrent use.
//
// The schema also knows which fields each kind has (Shape), so that
// UnknownFields can name a misspelled field in a patch (replica: 3) and the
// field most likely meant, instead of a merge adding it silently; and what
// the value at each place may be (Rule: type, format, enum, pattern,
// bounds, required and unknown fields), from the built-in kinds' OpenAPI
// schema (generated tables, rulesSource) and the CRDs' openAPIV3Schema, for
// validating what a function changed (package validate).
package schema
