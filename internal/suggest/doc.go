// Package suggest finds the name a user most likely meant when the one they
// wrote does not exist: a field of a patch, a config field, a kind, a
// resource name. "did you mean replicas?" is worth more than a list of every
// valid name.
package suggest
