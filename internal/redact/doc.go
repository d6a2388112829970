// Package redact keeps Secret values out of what a function prints.
//
// Results end up in kpt's results file and in CI logs, and a package may
// come from an author who wants to read the credentials of the machine
// running it: a JSON patch that copies a password into metadata.namespace
// makes every later message that names the resource print the password.
// Finding each such path does not scale, so the runner redacts by
// construction: it registers every Secret value it knows of in a Set
// before anything is printed, and every result (Set.Results) and every
// line written to stderr (Set.Writer) goes through the Set on its way out.
//
// The rule: every occurrence of a form of a registered value is replaced
// by "<redacted>". The forms of a value v are
//
//   - v itself, and v without surrounding white space;
//   - v escaped as messages and encoders quote it: Go (%q, and %+q's
//     ASCII-only form), JSON (with and without HTML escaping), YAML
//     double-quoted and single-quoted;
//   - v in base64, standard and URL alphabets, padded and not (a Secret's
//     data holds the standard, padded one);
//   - decoded: for a Secret's data value, the value it decodes to, in all
//     of its own forms; for any value that is base64 of UTF-8 text, that
//     text;
//   - any piece of Piece (8) bytes or more of any of the forms above: a
//     message that cuts a value ("holds the text \"tok-app-0123…\"") shows
//     a piece of it, escaped. Pieces shorter than Piece are not redacted
//     (they turn up in ordinary words: "password", "https://");
//   - each line of a value of several lines, as written and trimmed.
//
// A value that holds a YAML or JSON document (a config file kept in a
// Secret: a map or a list, written over several lines or in {} or [])
// is matched whole and by lines, and each string or number inside it is a
// value of its own, with all its forms; its keys are not secret (messages
// name them, as they name a Secret's own keys), so its pieces are not
// redacted, but those of its base64 form are. A document with more than
// maxLeaves values is taken as text, keys and all. Aliases are followed.
// Where occurrences overlap or touch, the whole run becomes one
// "<redacted>", so no part of any value is left between them.
//
// Forms shorter than MinLen (4) bytes are not redacted: a one-character
// secret ("1", "y") or "on" would otherwise turn every message into a row
// of "<redacted>"s while protecting nothing (a value that short is guessed
// at once).
//
// The price is over-redaction, never a leak: a Secret holding "admin"
// hides a ServiceAccount named admin in messages too, and one holding
// "postgres://app@postgres.db:5432" hides the name of a Deployment called
// postgres.
//
// Resource identities follow the same rule: a namespace or name a patch
// filled from a Secret reads "v1 Secret <redacted>/db" in messages, and
// "<redacted>" in the result's resourceRef, which kpt prints itself.
//
// Registration keeps the values only, never their forms: the forms are
// made while a batch of texts is redacted, and each is scanned once per
// batch against the pieces of the texts, so memory does not grow with the
// number of forms and a batch costs time in proportion to the size of
// the values.
package redact
