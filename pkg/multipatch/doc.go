// Package multipatch applies patches to every resource their selectors
// match: kustomize's patches, generalised as the KEP "Extend Kustomize
// Patches to Multiple Targets" proposed, with warnings where kustomize is
// silent.
//
// Function is the multi-patch function. Its config (a MultiPatch, or
// kustomize's builtin PatchTransformer as it is) lists patches; each gives
// a patch, inline or from a file, and the resources it applies to as a
// selector.Set (target, targets, reject). A map is a strategic merge patch
// (package smp, with the merge keys of package schema and of the CRDs in
// the input) unless type says MergePatch; a list of operations is a JSON
// patch (package jsonpatch), which needs a target. A patch without a target
// names its own resource, as in kustomize. type takes either name of a
// type (MergePatch or merge...): package patch reads the patch texts.
// Entries apply in order, each to the result of the one before.
//
// What kustomize lets pass in silence gets a result: a target that selects
// nothing (onNoMatch: warn by default, error or ignore), a field the
// patched kind does not have (replica: 3), a keyed element such as a
// container added in some resources and merged in others, a container
// added without an image. With strict: true the warnings about the patch
// itself are errors. A patch may not change a resource's kind or name
// unless options allow it, and references to a renamed resource follow it
// (package namerefs). Any error fails the whole run and leaves every
// resource as it was.
//
// Beyond kustomize: schemas and mergeKeys (package mergemeta) add merge
// metadata from files and declare the keys of lists no schema describes;
// mode: default makes a strategic or merge patch fill only what a resource
// lacks (smp.Options.Default); an entry with embedded: patches the JSON or
// YAML documents strings hold (package embedpatch, embedded.go).
package multipatch
