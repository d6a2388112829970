// Package yamlstyle holds the one rule for quoting the strings a function
// writes: a string is written plain only when every YAML reader reads it
// back as that string.
//
// Our YAML library follows YAML 1.2, where `yes`, `on`, `off`, `y`, `n`,
// `12:30:45` (sexagesimal) and `0755` are plain strings; the Kubernetes API
// server and kubectl read YAML 1.1, and so do PyYAML and other YAML 1.1
// readers, where they are booleans and the integers 45045 and 493. A string
// written plain would change type on the way, so it is quoted, as kustomize
// does. Strategic and JSON/merge patches, replacements, generators and the
// editor of YAML held in strings (pkg/embedded) all apply this rule.
package yamlstyle

import (
	"regexp"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// QuoteIfAmbiguous double-quotes a plain string scalar that a YAML 1.1 or
// 1.2 reader would read as something other than a string. Other nodes are
// left alone.
func QuoteIfAmbiguous(n *yaml.Node) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 || n.ShortTag() != "!!str" {
		return
	}
	if NonString(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
}

// NonString reports whether s, written as a plain scalar, is read by YAML
// 1.1 or YAML 1.2 as something other than the string s: a null, a
// boolean, a number (any base, underscores, sexagesimal), a timestamp, or a
// merge or value key. Words such as "500m" or "1.2.3" stay strings.
func NonString(s string) bool {
	return nonStringWords[s] || numberLike.MatchString(s)
}

var (
	// Spellings YAML 1.1 or 1.2 read as something other than a string.
	nonStringWords = map[string]bool{
		"~": true, "null": true, "Null": true, "NULL": true,
		"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
		"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
		"n": true, "N": true, "no": true, "No": true, "NO": true,
		"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
		"<<": true, "=": true,
	}
	// The numbers of YAML 1.1 and 1.2 (decimal, octal, hexadecimal and
	// binary integers, underscores, sexagesimal integers and floats,
	// floats, infinities, NaN) and the timestamps.
	numberLike = regexp.MustCompile(`^(` +
		`[-+]?[0-9][0-9_]*` + // 12, 0755, 1_000
		`|[-+]?0[oO][0-7_]+|[-+]?0[xX][0-9a-fA-F_]+|[-+]?0[bB][01_]+` +
		`|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?` + // 1:30, 12:30:45, 190:20:30.15
		`|[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+]?[0-9]+)?` + // 1.5, .5, 1., 1.5e3
		`|[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+` + // 1e3
		`|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)` +
		`|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt \t].*)?` + // timestamps
		`)$`)
)
