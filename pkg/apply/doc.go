// Package apply merges an apply configuration — a partial object — into a
// resource as the API server's server-side apply merges an applied
// configuration into the object it applies to, for patches of type
// ApplyPatch (package patch): lists by their x-kubernetes-list-type (a
// map by its x-kubernetes-list-map-keys, a set as a union, atomic
// replaced), maps key by key unless x-kubernetes-map-type is atomic. There
// is no field ownership: the patch's fields win, the others stay.
//
// The merge is sigs.k8s.io/structured-merge-diff's, the library the API
// server uses, with the types the server uses:
//
//   - built-in kinds: the structured-merge schema client-go's apply
//     configurations carry, generated into zz_builtin.go by package
//     schema's internal/gen (go generate in package schema), so that no
//     binary links client-go; Builtin;
//   - CRDs: their openAPIV3Schema, converted as the API server converts
//     it (its structure and x-kubernetes- extensions as kube-openapi's
//     schemaconv reads them, value validations left out; apiVersion, kind
//     and metadata added), on first use; Schema.WithCRDs. The converter is
//     our own, on yaml nodes: schemaconv would bring protobuf descriptors
//     into the binaries (0.4 MB and their start-up), and the differential
//     test holds ours to it;
//   - anything else: deduced from its values (maps merged, lists replaced),
//     as the server merges a resource that keeps unknown fields.
//
// A value goes to the library as the API server decodes it (JSON numbers
// as int64 or float64) and comes back onto the yaml nodes it came from
// through package jsonpatch's Rewrite: only what the merge changed is
// touched, so comments, key order and quoting of the rest stay, as they do
// for a strategic merge. Errors (*smp.Error, as every merge's) name the
// field path and say what is wrong in our words; no Go value and no
// Secret's value is shown.
package apply
