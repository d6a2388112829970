// Package generator is the merge-values-generator function: kustomize's
// configMapGenerator and secretGenerator as a KRM function, plus
// mergeValues, which deep-merges structured (JSON or YAML) values into the
// existing resource's instead of replacing them.
//
// Function is the merge-values-generator function; it accepts its own
// MergeValuesGenerator config (a kustomization's generator fields, with
// mergeValues in each generator) and kustomize's builtin ConfigMapGenerator
// and SecretGenerator. Each generator creates its resource (behavior:
// create, the default), or merges into or replaces the one already among
// the items; mergeValues names the keys whose JSON or YAML values are
// deep-merged (package valuemerge) rather than replaced.
//
// A run goes generator by generator (ConfigMaps first, then Secrets, as
// kustomize does): load the key/value pairs (kv), then create, merge or
// replace, then name the result with the hash of its final content (hash)
// and make the references to the old name follow (namerefs).
//
// kpt re-runs a pipeline on its own output, so a run recognises what an
// earlier run made: every resource the function names carries the
// annotation fn.patchwork.dev/generated-from with the generator's name.
//
// Under kustomize the function sees different things (see functions/merge-values-generator/README.md):
// as a generator it sees only its own config, so it leaves hashing and
// merging to kustomize through kustomize's hint annotations; as a
// transformer it sees the base's generated resources before kustomize
// hashed them, and leaves their naming to kustomize.
package generator
