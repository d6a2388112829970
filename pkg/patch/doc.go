// Package patch compiles the patches of a config: the text of a
// multi-patch entry (into resources, or with embedded: into the documents
// strings hold) and of a podspec-patch entry (into PodSpecs, and each
// container), read once into documents ready to apply.
//
// It is the one place for what those have in common:
//
//   - the patch types (Type) and their names in a config, each accepted
//     under both spellings everywhere: StrategicMergePatch or strategic,
//     JsonPatch or json6902, MergePatch or merge (ParseType); a new type
//     is a row of the types table;
//   - the text split into documents (internal/yamlstream), one per patch
//     or, into resources, a stream of them;
//   - the type of a document written without one: a list is a JSON patch,
//     a map a strategic merge patch, but a merge patch into a string
//     (Into);
//   - the rules of mode: default (ParseMode, Options.Default): which types
//     have a default mode, a $patch: delete refused, a default merge patch
//     checked without a schema. The merge itself is smp.Options.Default.
//
// Parse does the reading and the checks that need nothing but the patch;
// Doc.Validate checks a strategic patch against a schema once the caller
// knows it, and Doc.Apply applies a document to a resource, PodSpec or
// container (package embedpatch applies patches into strings).
package patch
