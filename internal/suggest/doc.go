// Package suggest finds the name a user most likely meant when the one they
// wrote does not exist: a field of a patch, a config field, a kind, a
// resource name. "did you mean replicas?" is worth more than a list of every
// valid name.
//
// It also says what a pattern most likely meant (pattern.go): the regular
// expression of a shell glob (shop-* is shop-.*), a pattern anchored where
// values match whole anyway (^shop- is shop-.*), and why a pattern is no
// regular expression Go reads (RE2 has no lookaround), for every place a
// pattern is written: selectors, field paths' [key=value], containerNames.
package suggest
