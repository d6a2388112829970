// Package validate checks what a function changed in a resource against
// the resource's schema (schema.Rule), as the API server will: only the
// places that changed (package treediff), so that a problem the resource
// had before is not reported, and everything inside what was added.
//
// Each place is checked for its type (an integer where the schema wants
// one, not the string "3"), its format (int32 and int64 bounds, a
// Kubernetes quantity, base64 data, an RFC 3339 time), the values an enum
// allows, a pattern, minimum and maximum, lengths and numbers of elements,
// the required fields of the objects and list elements added (and of an
// object that lost one), and fields the schema does not know where it does
// not keep unknown fields. A null is a field left out, as the API server
// reads it, unless the schema makes it nullable.
//
// A Finding names the place (in the words of messages, as treediff's
// Where), what the schema wants and what it got; a Secret's values never
// appear in it (Options.Secret).
package validate
