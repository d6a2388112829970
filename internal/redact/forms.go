package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// eachForm calls do with each form of v (see the package documentation)
// but its pieces, until do returns false. The base64 forms are padded:
// the pieces of each hold those of the form without padding.
func eachForm(v string, do func(string) bool) {
	if !do(v) {
		return
	}
	if needsEscape(v) {
		for _, q := range escaped(v) {
			if q != v && !do(q) {
				return
			}
		}
	}
	std := base64.StdEncoding.EncodeToString([]byte(v))
	if !do(std) {
		return
	}
	if strings.ContainsAny(std, "+/") {
		do(base64.URLEncoding.EncodeToString([]byte(v)))
	}
}

// unpadded are v's base64 forms without padding, which a short value's
// forms, matched whole, need besides the padded ones.
func unpadded(v string) []string {
	return []string{base64.RawStdEncoding.EncodeToString([]byte(v)), base64.RawURLEncoding.EncodeToString([]byte(v))}
}

// needsEscape reports whether some quoting of v differs from v: it holds a
// quote, a backslash, a character JSON escapes for HTML, a control
// character or one outside ASCII.
func needsEscape(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x7f || strings.IndexByte(`"'\<>&`, c) >= 0 {
			return true
		}
	}
	return false
}

// escaped are v's escaped forms, without their quotes: Go's %q and %+q,
// JSON with and without HTML escaping, YAML double- and single-quoted.
func escaped(v string) []string {
	return []string{
		unquote(strconv.Quote(v), `"`),
		unquote(strconv.QuoteToASCII(v), `"`),
		unquote(jsonString(v, true), `"`),
		unquote(jsonString(v, false), `"`),
		unquote(yamlString(v, yaml.DoubleQuotedStyle), `"`),
		strings.ReplaceAll(v, "'", "''"),
	}
}

func unquote(q, mark string) string {
	return strings.TrimSuffix(strings.TrimPrefix(q, mark), mark)
}

// jsonString is v as encoding/json writes a string.
func jsonString(v string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(v); err != nil {
		return v
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// yamlString is v as yaml.v3 writes a string in the given style (a long
// one folded over lines, whose pieces are matched).
func yamlString(v string, style yaml.Style) string {
	if !utf8.ValidString(v) {
		return v // written as !!binary: base64
	}
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: v})
	if err != nil {
		return v
	}
	return strings.TrimSuffix(string(out), "\n")
}
