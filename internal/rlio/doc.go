// Package rlio turns ResourceList bytes into items and items back into
// ResourceList bytes, for the runner (pkg/fnrun). It is the codec and
// nothing else: it does not know what a function does.
//
// Its contract: an item the runner says is unchanged (List.Unchanged) is
// written as the bytes it was read from, where those can be placed
// (listspans.go); every other item is written as kyaml's
// kio.ByteReadWriter (KeepReaderAnnotations, as kyaml's framework runs
// functions) would write it, or the kyaml path itself is taken.
//
//   - Reading is kyaml's: kio.ByteReader decodes the whole input with
//     yaml.v3. Nothing here guesses YAML structure from lines or bytes.
//   - Writing differs from kyaml's only in how the work is cut up. kyaml
//     encodes the whole list as one YAML document, and yaml.v3's emitter
//     then spends most of a run growing one ever larger buffer. Here the
//     envelope (apiVersion, kind, the "items:" key) is written by hand and
//     the items separately, on every core: each by emitItem (emit.go), which
//     writes the shapes most resources have by yaml.v3's own emitter rules,
//     or else by yaml.v3, up to sixteen refused items to an encoder, as a
//     block sequence, which yaml.v3 emits exactly as the same entries inside
//     the whole list. Where that is not so (a comment yaml.v3 keeps pending
//     for whatever it writes next, see pendingAfter), the whole list goes
//     to kyaml's writer.
//   - kpt's path/index/id annotations are kept in the format they came in,
//     as kyaml's framework does with kio.PreprocessResourcesForInternalAnnotationMigration
//     and kio.ReconcileInternalAnnotations: Migrate does the same in one
//     pass over each item's annotations (migration.go).
//
// Setting PATCHWORK_KYAML_IO=1 in the environment makes FromEnv return the
// kyaml codec: kyaml's writer and kyaml's annotation functions, for a user
// who suspects the fast path. The tests hold both codecs to the same bytes.
//
// Standalone runs (plain YAML streams, not ResourceLists) are read by
// ReadStream, with kyaml's reader, each document placed in the bytes it
// came from by yaml.v3's positions; WriteStream writes each document as
// the bytes it is given (its source, or an edit of it) or whole, as
// kyaml's writer writes it.
package rlio
