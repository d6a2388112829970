package scalar

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// NeedsQuotes reports whether s, written as a plain scalar, would be read
// by yaml.v3, yaml.v2 or a YAML 1.1 reader as something other than the
// string s: a null, a boolean, a number, a timestamp, a merge or value key.
func NeedsQuotes(s string) bool {
	if s == "" {
		return true // an empty plain scalar is null
	}
	if v2Booleans[s] {
		return true
	}
	return Resolve12(s) != "!!str" || Resolve11(s) != "!!str"
}

// QuoteIfNeeded double-quotes a plain string scalar that NeedsQuotes. Other
// nodes (numbers, booleans, quoted or block strings, collections) are left
// alone: a plain node whose text yaml.v3 resolves to a number is a number.
// So is the empty string, which the encoder quotes itself: a style set on
// it would stay with the node when a value is set into it later.
func QuoteIfNeeded(n *yaml.Node) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 || n.Value == "" || n.ShortTag() != "!!str" {
		return
	}
	if NeedsQuotes(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
}

// v2Booleans are the plain scalars yaml.v2 reads as booleans and yaml.v3
// as strings: the rest of yaml.v2's resolver is yaml.v3's.
var v2Booleans = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// V2Boolean reports whether yaml.v2 reads the plain scalar s as a boolean
// where yaml.v3 reads a string (yes, on, N): the YAML 1.1 booleans yaml.v3's
// Marshal quotes.
func V2Boolean(s string) bool { return v2Booleans[s] }
