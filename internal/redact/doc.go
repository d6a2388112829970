// Package redact keeps Secret values out of what a function prints.
//
// Results end up in kpt's results file and in CI logs, and a package may
// come from an author who wants to read the credentials of the machine
// running it: a JSON patch that copies a password into metadata.namespace
// makes every later message that names the resource print the password.
// Finding each such path does not scale, so the runner redacts by
// construction: it registers every Secret value it knows of in a Set
// before anything is printed, and every message, resource identity and
// result field goes through Set.Result (or Set.String) on its way out.
//
// The rule: every occurrence of a registered value, in any of the forms a
// message may carry it, is replaced by "<redacted>". The forms of a value v
// are v itself, v without surrounding white space, each of its lines, its
// base64 encodings (standard and URL alphabets, padded and not: a Secret's
// data holds the standard, padded one), and, when v holds a YAML or JSON
// document (a config file kept in a Secret), each string or number value
// inside it, with its forms (keys are not secret: messages name them, as
// they name a Secret's own keys). Where occurrences overlap or touch, the
// whole run becomes one "<redacted>", so no part of any value is left.
//
// Forms shorter than MinLen (4) bytes are not redacted: a one-character
// secret ("1", "y") or "on" would otherwise turn every message into a row
// of "<redacted>"s while protecting nothing (a value that short is guessed
// at once).
//
// The price is over-redaction, never a leak: a Secret holding "admin"
// hides a ServiceAccount named admin in messages too.
//
// Resource identities follow the same rule: a namespace or name a patch
// filled from a Secret reads "v1 Secret <redacted>/db" in messages, and
// "<redacted>" in the result's resourceRef, which kpt prints itself.
package redact
