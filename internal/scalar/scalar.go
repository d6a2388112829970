package scalar

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

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

// Resolve12 is yaml.v3's resolution of a plain scalar: "!!str", "!!int",
// "!!float", "!!bool", "!!null", "!!timestamp" or "!!merge". yaml.v3 is
// asked itself.
func Resolve12(s string) string {
	switch {
	case s == "":
	case !v3Hint[s[0]]:
		return "!!str" // what yaml.v3's resolver returns at once for these
	case v3Word[s[0]] && !v3Words[s]:
		return "!!str" // it only looks these up in its map of words
	}
	n := yaml.Node{Kind: yaml.ScalarNode, Value: s}
	return n.ShortTag()
}

// Resolver is Resolve12 with a memory for values yaml.v3 must parse to
// resolve (8080, 256Mi: a parse and an allocation each), which resources
// repeat. Not safe for concurrent use; the zero value is ready.
type Resolver struct{ tags map[string]string }

// Resolve12 is the package's Resolve12, remembering up to 4,096 short
// values it had to ask yaml.v3 about.
func (r *Resolver) Resolve12(s string) string {
	if s == "" || !v3Hint[s[0]] || (v3Word[s[0]] && !v3Words[s]) || len(s) > 32 {
		return Resolve12(s)
	}
	if tag, ok := r.tags[s]; ok {
		return tag
	}
	tag := Resolve12(s)
	if r.tags == nil {
		r.tags = map[string]string{}
	}
	if len(r.tags) < 4096 {
		r.tags[s] = tag
	}
	return tag
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

// v2Booleans are the plain scalars yaml.v2 reads as booleans and yaml.v3
// as strings: the rest of yaml.v2's resolver is yaml.v3's.
var v2Booleans = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// Resolve11 is the resolution of a plain scalar by YAML 1.1 readers,
// transcribed from PyYAML's implicit resolvers: each is tried, in PyYAML's
// order, when the scalar starts with one of its first characters; the
// first that matches gives the tag. "!!str" when none does. The word lists
// (booleans, nulls, "<<", "=") are looked up rather than matched.
func Resolve11(s string) string {
	if s == "" {
		return "!!null"
	}
	if tag, ok := words11[strings.TrimSuffix(s, "\n")]; ok {
		return tag
	}
	if strings.IndexByte("-+0123456789.", s[0]) < 0 {
		return "!!str"
	}
	for _, r := range yaml11 {
		if strings.IndexByte(r.first, s[0]) >= 0 && r.re.MatchString(s) {
			return r.tag
		}
	}
	return "!!str"
}

// words11 are the YAML 1.1 spellings that are words.
var words11 = map[string]string{
	"yes": "!!bool", "Yes": "!!bool", "YES": "!!bool", "no": "!!bool", "No": "!!bool", "NO": "!!bool",
	"true": "!!bool", "True": "!!bool", "TRUE": "!!bool", "false": "!!bool", "False": "!!bool", "FALSE": "!!bool",
	"on": "!!bool", "On": "!!bool", "ON": "!!bool", "off": "!!bool", "Off": "!!bool", "OFF": "!!bool",
	"~": "!!null", "null": "!!null", "Null": "!!null", "NULL": "!!null",
	"<<": "!!merge", "=": "!!value",
}

type resolver11 struct {
	tag   string
	first string // the first characters it is tried for; "\x00" for ""
	re    *regexp.Regexp
}

// yaml11 are PyYAML's resolvers for numbers and timestamps, in the order
// it registers them. A Python "$" also matches before a final line break,
// hence `\n?$`.
var yaml11 = []resolver11{
	{"!!float", "-+0123456789.", re11(`[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?` +
		`|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?` +
		`|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*` +
		`|[-+]?\.(?:inf|Inf|INF)` +
		`|\.(?:nan|NaN|NAN)`)},
	{"!!int", "-+0123456789", re11(`[-+]?0b[0-1_]+` +
		`|[-+]?0[0-7_]+` +
		`|[-+]?(?:0|[1-9][0-9_]*)` +
		`|[-+]?0x[0-9a-fA-F_]+` +
		`|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`)},
	{"!!timestamp", "0123456789", re11(`[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]` +
		`|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?` +
		`(?:[Tt]|[ \t]+)[0-9][0-9]?` +
		`:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?` +
		`(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?`)},
}

func re11(alternatives string) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + alternatives + `)\n?$`)
}

// KeyForms returns the identities a mapping key has for the readers: its
// spelling (yaml.v3 refuses a map that repeats one), and the key each
// reader ends up with once it resolves the scalar and, as Kubernetes
// tools do, turns it into a JSON object key: yaml.v3's, yaml.v2's through
// sigs.k8s.io/yaml, and a YAML 1.1 reader's. Two keys of one map that
// share a form are duplicates for some reader. A key that is not a scalar
// (a map or list used as a key) has no forms.
func KeyForms(k *yaml.Node) []string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return nil
	}
	forms := []string{"spelling\x00" + k.Value}
	tag := k.ShortTag()
	forms = append(forms, "v3\x00"+jsonKey12(tag, k))
	if !isPlain(k) {
		// quoted, a block scalar, or explicitly tagged: every reader
		// takes the tag it was given
		return append(forms, "v2\x00"+jsonKey12(tag, k), "1.1\x00"+jsonKey12(tag, k))
	}
	v2 := jsonKey12(tag, k)
	if v2Booleans[k.Value] {
		v2 = strconv.FormatBool(strings.ContainsRune("yYoO", rune(k.Value[0])) && !strings.EqualFold(k.Value, "off"))
	} else if tag == "!!float" {
		v2 = sigsFloat(k)
	}
	return append(forms, "v2\x00"+v2, "1.1\x00"+jsonKey11(k.Value))
}

// StringForAll reports whether every reader takes key k for the string it
// spells: then two such keys are one key exactly when they are spelled
// alike, and comparing spellings is enough.
func StringForAll(k *yaml.Node) bool {
	if k.Kind != yaml.ScalarNode {
		return false
	}
	if !isPlain(k) {
		return k.ShortTag() == "!!str"
	}
	return !NeedsQuotes(k.Value)
}

// ResolvedDuplicates calls report(i, j) for each key j of a mapping's
// content (keys at even indexes) that a reader takes for the same key as
// an earlier key i although the two are spelled differently (true and
// True, 80 and 0x50). Maps whose keys are all strings cost one check per
// key.
func ResolvedDuplicates(content []*yaml.Node, report func(i, j int)) {
	all := true
	for i := 0; i+1 < len(content); i += 2 {
		if !StringForAll(content[i]) {
			all = false
			break
		}
	}
	if all {
		return
	}
	first := map[string]int{}
	for j := 0; j+1 < len(content); j += 2 {
		forms := KeyForms(content[j])
		reported := false
		for _, f := range forms {
			i, seen := first[f]
			if !seen {
				first[f] = j
				continue
			}
			if !reported && content[i].Value != content[j].Value {
				report(i, j)
				reported = true
			}
		}
	}
}

func isPlain(k *yaml.Node) bool {
	return k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle|yaml.TaggedStyle) == 0 &&
		(k.Tag == "" || k.Tag == Resolve12(k.Value))
}

// jsonKey12 is the JSON key of a scalar yaml.v3 resolved to tag.
func jsonKey12(tag string, k *yaml.Node) string {
	switch tag {
	case "!!null":
		return "null"
	case "!!bool", "!!int", "!!float":
		var v any
		if err := k.Decode(&v); err != nil {
			return k.Value
		}
		switch v := v.(type) {
		case float64:
			return formatFloat(v, 64)
		default:
			return formatAny(v)
		}
	}
	return k.Value
}

// sigsFloat is the key sigs.k8s.io/yaml makes of a float: formatted with
// float32 precision.
func sigsFloat(k *yaml.Node) string {
	var f float64
	if err := k.Decode(&f); err != nil {
		return k.Value
	}
	return formatFloat(f, 32)
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

func formatAny(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	}
	return ""
}

// jsonKey11 is the key a YAML 1.1 reader makes of a plain scalar: the
// value it resolves to, written as JSON writes it.
func jsonKey11(s string) string {
	switch Resolve11(s) {
	case "!!null":
		return "null"
	case "!!bool":
		switch s[0] {
		case 'y', 'Y', 't', 'T':
			return "true"
		case 'o', 'O':
			return strconv.FormatBool(len(s) == 2) // on, not off
		}
		return "false"
	case "!!int":
		if n, ok := int11(s); ok {
			return n.String()
		}
	case "!!float":
		if f, ok := float11(s); ok {
			return formatFloat(f, 64)
		}
	}
	return s
}

// int11 reads a YAML 1.1 integer: underscores dropped, 0b binary, 0x hex,
// a leading 0 octal, base 60 with ":".
func int11(s string) (*big.Int, bool) {
	s = strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "_", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	n := new(big.Int)
	ok := true
	switch {
	case strings.HasPrefix(s, "0b"):
		_, ok = n.SetString(s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		_, ok = n.SetString(s[2:], 16)
	case strings.Contains(s, ":"):
		for _, part := range strings.Split(s, ":") {
			d, err := strconv.Atoi(part)
			if err != nil {
				return nil, false
			}
			n.Mul(n, big.NewInt(60)).Add(n, big.NewInt(int64(d)))
		}
	case len(s) > 1 && s[0] == '0':
		_, ok = n.SetString(s[1:], 8)
	default:
		_, ok = n.SetString(s, 10)
	}
	if neg {
		n.Neg(n)
	}
	return n, ok
}

// float11 reads a YAML 1.1 float: underscores dropped, base 60 with ":",
// infinities and NaN.
func float11(s string) (float64, bool) {
	s = strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "_", "")
	switch strings.ToLower(strings.TrimLeft(s, "+")) {
	case ".inf":
		return math.Inf(1), true
	case "-.inf":
		return math.Inf(-1), true
	case ".nan":
		return math.NaN(), true
	}
	if strings.Contains(s, ":") {
		neg := strings.HasPrefix(s, "-")
		v := 0.0
		for _, part := range strings.Split(strings.TrimLeft(s, "+-"), ":") {
			d, err := strconv.ParseFloat(part, 64)
			if err != nil {
				return 0, false
			}
			v = v*60 + d
		}
		if neg {
			v = -v
		}
		return v, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}
