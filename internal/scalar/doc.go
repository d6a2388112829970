// Package scalar is the project's one home for the rules about YAML
// scalars: how a plain scalar is read (its resolution), whether a string a
// function writes may be plain or must be quoted, which characters may
// stand for themselves, and when two mapping keys spelled differently are
// one key. Every writer (strategic and JSON/merge
// patches, replacements, generators, the editor of YAML held in strings,
// the merge of YAML values) and every duplicate-key check asks here; no
// other package keeps a list of "ambiguous" spellings.
//
// The question is always the one the readers ask. A string may be written
// plain only when every reader that will read it resolves the plain scalar
// back to the same string:
//
//   - yaml.v3 (kyaml, kpt, kustomize), asked through its own resolver
//     (Node.ShortTag of an untagged plain node). It drops "_" from numbers
//     before reading them, so 1e_3 is 1000, 0_x1F is 31, -_1 is -1 and
//     +_.5 is 0.5;
//   - yaml.v2 (sigs.k8s.io/yaml: kubectl and the API server), whose resolver
//     is yaml.v3's plus the YAML 1.1 booleans y, yes, on, off, n, no in
//     their three cases (the fuzz target checks this against yaml.v2);
//   - YAML 1.1 readers (PyYAML, Ruby's Psych, yaml-cpp in 1.1 mode), by
//     PyYAML's implicit resolvers (Resolve11): sexagesimal 12:30:45, octal
//     0755, the value key "=", and so on. testdata/yaml11-table.txt, written
//     by PyYAML itself, checks the transcription.
//
// Whether a string can be written plain at all (": " inside, a leading
// "-" and space, a trailing space, a character yaml.v3 escapes) is
// CanBePlain's question, answered as yaml.v3's emitter answers it, with
// Printable its one definition of a character that may stand for itself.
// Both writers of YAML text ask it: internal/rlio, which must write what
// yaml.v3 writes, and pkg/embedded, which writes a string plain when
// CanBePlain and not NeedsQuotes.
//
// Keys: readers keep the last of two keys that resolve to the same value,
// so true and True, 80 and 0x50, ~ and null, 1 and 1.0 (both "1" once a
// Kubernetes reader turns the document into JSON), yes and on (for YAML
// 1.1 readers) are one key. KeyForms gives the identities a key has for
// each reader; two keys sharing one are duplicates.
package scalar
