// Package yamltree lets fieldpath.Select and fieldpath.Matches look at
// yaml.v3 (kyaml) nodes: the resources themselves, and the values the merge
// engine works on. What a segment selects is decided by package fieldpath;
// this package only answers its questions about the nodes.
package yamltree
