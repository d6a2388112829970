package scalar

import (
	"regexp"
	"strings"
)

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
	return numberTag11(s)
}

// numberTag11 is the tag of the first of PyYAML's resolvers for numbers
// and timestamps (yaml11) that matches s, not empty; "!!str" when none
// does.
func numberTag11(s string) string {
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
