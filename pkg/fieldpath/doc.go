// Package fieldpath parses the field paths of kustomize's replacements:
//
//	spec.template.spec.containers.[name=app].env.[name=HOST].value
//	data.config\.json.servers.0.host
//	metadata.annotations.[example.com/config].ports.*
//
// A path is split on dots. `\.` is a dot inside a segment; `[a.b]` is a
// literal key that may hold dots; `[key=value]` selects the elements of a
// list whose field key equals value (`[=value]` matches scalar elements);
// a number indexes a list; `*` stands for every element.
//
// Differences from kustomize 5.8, all deliberate:
//   - `[key=value]` compares the whole value. kustomize matches value as an
//     unanchored regular expression in targets (so `[name=app]` also selects
//     "app-sidecar") and exactly in sources; one rule for both is easier to
//     trust.
//   - `[key]` without `=` is a literal key even when it holds no dot
//     (kustomize rejects it); `[8080]` and `[*]` name keys that would
//     otherwise read as an index or a wildcard.
//   - An empty segment (`a..b`, a leading or trailing dot) is an error
//     instead of being skipped silently.
//
// The package parses paths (Parse; Path.String writes one back so that it
// parses to the same path) and decides what a segment selects in a node
// (Select, Matches), for every walker alike: kyaml nodes in replacement,
// the span trees of strings in embedded. Walking, creating what is missing
// and the words of messages are the walkers' own.
package fieldpath
