// Package yamljson encodes yaml nodes as JSON directly, keeping the order of
// map keys. kyaml's own MarshalJSON goes through Go maps: it sorts keys and
// allocates far more, which shows when a config has thousands of entries.
package yamljson
