// Package fieldpath parses the field paths of kustomize's replacements:
//
//	spec.template.spec.containers.[name=app].env.[name=HOST].value
//	data.config\.json.servers.0.host
//	metadata.annotations.[example.com/config].ports.*
//
// A path is split on dots. `\.` is a dot inside a segment; `[a.b]` is a
// literal key that may hold dots; `[key=value]` is a matcher: it selects
// the elements of a list whose field key is a scalar the value matches
// (`[=value]` selects scalar elements); a number indexes a list; `*` stands
// for every element.
//
// What a matcher means: value is a regular expression (Go's syntax, which
// is kustomize's) matched against the whole of the field's value, as if
// written ^(?:value)$; a field whose value is exactly the text of value
// matches too, so a value meant literally (`[=a+b]`, `[=*.example.com]`,
// which does not compile) always selects itself. A value that does not
// compile and was meant as a pattern (a group or class never closed,
// lookahead: `[name=(?!istio).*]`) is an error when Parse reads it, with
// what RE2 accepts (pattern.go). `[name=app.*]` selects app1 and app2;
// `[name=app]` selects app alone. Where one is created, the element gets
// the text of value as written. The expression is compiled once, by Parse
// (NewMatch for a segment made in code). Where a path leads nowhere,
// hint.go says what it most likely meant, for every walker's message.
//
// Differences from kustomize 5.8, all deliberate:
//   - A matcher's value matches the whole value. kustomize's targets read
//     it as an unanchored regular expression (so `[name=pp]` selects "app1"
//     and "app2", `[name=app]` also "app-sidecar"), its sources compare it
//     exactly: one rule for both, meaning what users write.
//     Selection.Unanchored names the elements kustomize's reading of a
//     target would also select, for walkers to warn about a ported config.
//   - `[key]` without `=` is a literal key even when it holds no dot
//     (kustomize rejects it); `[8080]` and `[*]` name keys that would
//     otherwise read as an index or a wildcard.
//   - An empty segment (`a..b`, a leading or trailing dot) is an error
//     instead of being skipped silently.
//
// The package parses paths (Parse; Path.String writes one back so that it
// parses to the same path), decides what a segment selects in a node
// (Select, Matches) and walks a whole path (Walk: the places it leads to,
// the way there as Steps, and the dead ends with why), for every walker
// alike: kyaml nodes in replacement and multi-patch, the span trees of
// strings in embedded, the values mergeKeys paths name (Reaches). Creating
// what is missing, going into strings and the words of messages are the
// walkers' own.
package fieldpath
