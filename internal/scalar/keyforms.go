package scalar

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

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
	return append(forms, "v2\x00"+v2Key(tag, k), "1.1\x00"+jsonKey11(k.Value))
}

// v2Key is the JSON key yaml.v2, through sigs.k8s.io/yaml, makes of a
// plain scalar yaml.v3 resolved to tag: yaml.v2 has booleans of its own,
// and writes floats with float32 precision.
func v2Key(tag string, k *yaml.Node) string {
	switch {
	case v2Booleans[k.Value]:
		return boolWord(k.Value)
	case tag == "!!float":
		return sigsFloat(k)
	}
	return jsonKey12(tag, k)
}

// JSONKey is the key yaml.v3 makes of a scalar, as Kubernetes tools turn
// it into a JSON object key: the string it spells, or the value it
// resolves to written as JSON writes it (00 is "0", 1.0 is "1", ~ is
// "null", True is "true"). Two scalars with one JSONKey are one key to
// yaml.v3, and one key of a keyed list's elements to every merge.
func JSONKey(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	return jsonKey12(k.ShortTag(), k)
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
	if allStringForAll(content) {
		return
	}
	first := map[string]int{}
	for j := 0; j+1 < len(content); j += 2 {
		if i, ok := sameKeyBefore(first, content, j); ok {
			report(i, j)
		}
	}
}

// allStringForAll reports whether every key of a mapping's content is
// StringForAll.
func allStringForAll(content []*yaml.Node) bool {
	for i := 0; i+1 < len(content); i += 2 {
		if !StringForAll(content[i]) {
			return false
		}
	}
	return true
}

// sameKeyBefore records the forms of key j of content in first (each
// form's first key) and returns the first earlier key spelled differently
// that shares one of them.
func sameKeyBefore(first map[string]int, content []*yaml.Node, j int) (int, bool) {
	before, found := 0, false
	for _, f := range KeyForms(content[j]) {
		i, seen := first[f]
		if !seen {
			first[f] = j
			continue
		}
		if !found && content[i].Value != content[j].Value {
			before, found = i, true
		}
	}
	return before, found
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
		return boolWord(s)
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

// boolWord is the JSON of a word YAML 1.1 or yaml.v2 reads as a
// boolean: y, yes, true and on are true (in any of their spellings), the
// others false.
func boolWord(s string) string {
	switch s[0] {
	case 'y', 'Y', 't', 'T':
		return "true"
	case 'o', 'O':
		return strconv.FormatBool(len(s) == 2) // on, not off
	}
	return "false"
}

// int11 reads a YAML 1.1 integer: underscores dropped, 0b binary, 0x hex,
// a leading 0 octal, base 60 with ":".
func int11(s string) (*big.Int, bool) {
	s = strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "_", "")
	n, ok := unsignedInt11(strings.TrimLeft(s, "+-"))
	if ok && strings.HasPrefix(s, "-") {
		n.Neg(n)
	}
	return n, ok
}

// unsignedInt11 reads a YAML 1.1 integer without its sign.
func unsignedInt11(s string) (*big.Int, bool) {
	switch {
	case strings.HasPrefix(s, "0b"):
		return new(big.Int).SetString(s[2:], 2)
	case strings.HasPrefix(s, "0x"):
		return new(big.Int).SetString(s[2:], 16)
	case strings.Contains(s, ":"):
		return base60Int(s)
	case len(s) > 1 && s[0] == '0':
		return new(big.Int).SetString(s[1:], 8)
	}
	return new(big.Int).SetString(s, 10)
}

// base60Int reads the digits of a base 60 integer (1:30:00).
func base60Int(s string) (*big.Int, bool) {
	n := new(big.Int)
	for _, part := range strings.Split(s, ":") {
		d, err := strconv.Atoi(part)
		if err != nil {
			return nil, false
		}
		n.Mul(n, big.NewInt(60)).Add(n, big.NewInt(int64(d)))
	}
	return n, true
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
		return base60Float(s)
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// base60Float reads a base 60 float (-1:30.5), sign and all.
func base60Float(s string) (float64, bool) {
	v := 0.0
	for _, part := range strings.Split(strings.TrimLeft(s, "+-"), ":") {
		d, err := strconv.ParseFloat(part, 64)
		if err != nil {
			return 0, false
		}
		v = v*60 + d
	}
	if strings.HasPrefix(s, "-") {
		v = -v
	}
	return v, true
}
