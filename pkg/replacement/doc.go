// Package replacement implements kustomize's replacements (v5.8) as a KRM
// function, with field paths that reach into JSON and YAML held in
// strings: data.config\.json.config.hostname edits the hostname inside the
// JSON document stored under data["config.json"], and only its bytes.
//
// Semantics follow kustomize: a source (one resource, exactly) or a
// sourceValue gives the value; delimiter and index pick part of it; every
// target field of every selected resource receives it. A missing source,
// several sources, or a missing target field without options.create are
// errors. Where this package differs, it says so in functions/structured-replacement/README.md.
//
// Function is the structured-replacement function; it accepts its own
// StructuredReplacement config, kustomize's builtin ReplacementTransformer
// and kpt's ApplyReplacements, which share Config. The replacements apply in
// order, each seeing the result of those before it. Field paths are package
// fieldpath's; the part of a path inside a string is edited by package
// embedded, which changes only the bytes of the value replaced. Messages
// never show a value read from a Secret, nor one copied from a Secret into
// another resource.
package replacement
