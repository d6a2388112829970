// Command gen writes the built-in merge tables of package schema.
//
// It reads, at generate time, through the Go module proxy:
//
//   - the structured-merge schema that each Kubernetes client embeds for its
//     apply configurations (a YAML string literal in
//     applyconfigurations/internal/internal.go): the list types and merge
//     keys the API server itself uses;
//   - the Go sources of the API types (k8s.io/api and friends): the API group
//     of each package, its kinds, the strategic-merge struct tags
//     (patchStrategy, patchMergeKey) and the +default= markers.
//
// and writes compact Go tables (see ../../builtin.go) holding only what
// merging needs, then the shape tables (see shapes.go and ../../shape.go):
// the field names of every type reachable from a kind, for catching typos
// in patches. With -apply it also writes package apply's tables (apply.go):
// the structured-merge schema itself, every type reachable from a kind,
// for patches merged as server-side apply merges. Usage, from package
// schema (go generate):
//
//	go run ./internal/gen -version v0.37.2 -o zz_builtin.go -apply ../apply/zz_builtin.go
//
// How the answers are decided:
//   - list strategy and keys: the structured-merge schema (associative with
//     keys: MergeByKeys, in the schema's key order; associative without keys:
//     Set; atomic: Replace). Where it says atomic but the Go struct tags say
//     patchStrategy "merge" (a Job's status conditions, a Pod's hostIPs), the
//     list merges by patchMergeKey as kubectl's strategic merge does;
//   - key defaults: only where the Go field carries a +default= marker (the
//     schema also lists the zero value of every always-serialized field, which
//     is no API default), with the value the schema records, and never "";
//   - retainKeys and replace: the Go struct tags (the schema has neither);
//   - kinds: the types each API package registers (AddKnownTypes) that carry
//     ObjectMeta, under the group and version of that package's
//     SchemeGroupVersion;
//   - pruning: a type is kept only if it, or something below it, merges
//     differently from "unknown" (lists replaced, maps merged).
package main
