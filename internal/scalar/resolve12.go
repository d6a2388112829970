package scalar

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Resolve12 is yaml.v3's resolution of a plain scalar: "!!str", "!!int",
// "!!float", "!!bool", "!!null", "!!timestamp" or "!!merge". yaml.v3 is
// asked itself.
func Resolve12(s string) string {
	if s != "" && stringAtOnce(s) {
		return "!!str"
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	return n.ShortTag()
}

// stringAtOnce reports whether yaml.v3's resolver takes s, not empty, for
// a string without parsing it: what it returns at once for a first byte
// not in v3Hint, and for a value it only looks up in its map of words
// (v3Word) and does not find there.
func stringAtOnce(s string) bool {
	return !v3Hint[s[0]] || v3Word[s[0]] && !v3Words[s]
}

// Resolver is Resolve12 with a memory for values yaml.v3 must parse to
// resolve (8080, 256Mi: a parse and an allocation each), which resources
// repeat. Not safe for concurrent use; the zero value is ready.
type Resolver struct{ tags map[string]string }

// Resolve12 is the package's Resolve12, remembering up to 4,096 short
// values it had to ask yaml.v3 about.
func (r *Resolver) Resolve12(s string) string {
	if s == "" || stringAtOnce(s) || len(s) > 32 {
		return Resolve12(s)
	}
	if tag, ok := r.tags[s]; ok {
		return tag
	}
	tag := Resolve12(s)
	r.remember(s, tag)
	return tag
}

// remember keeps the tag of s, while it holds fewer than 4,096.
func (r *Resolver) remember(s, tag string) {
	if r.tags == nil {
		r.tags = map[string]string{}
	}
	if len(r.tags) < 4096 {
		r.tags[s] = tag
	}
}

// v3Hint marks the first bytes for which yaml.v3's resolver looks further
// (its resolve table: signs, digits, '.', and the first letters of true,
// false, null, yes, no, on, off and '~'); for any other first byte it gives
// !!str without looking, so Resolve12 need not ask it, which costs an
// allocation per value. TestResolve12FastPath holds the two to the same
// answers.
var v3Hint = func() (t [256]bool) {
	for _, c := range "+-0123456789.yYnNtTfFoO~" {
		t[c] = true
	}
	return t
}()

// v3Word marks the first bytes for which yaml.v3's resolver only looks the
// value up in its map of words, v3Words: any other value is a string.
var v3Words = map[string]bool{"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"~": true, "null": true, "Null": true, "NULL": true}

var v3Word = func() (t [256]bool) {
	for _, c := range "yYnNtTfFoO~" {
		t[c] = true
	}
	return t
}()
