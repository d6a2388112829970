package valuemerge

import (
	"fmt"
	"math"

	yaml "go.yaml.in/yaml/v3"
)

// jsonValues makes Want's values, in a JSON document, values JSON can
// spell, where a patch or overlay written in YAML brings others. A date
// (2001-12-14, a YAML timestamp) is a string in JSON, as every reader
// converting YAML to JSON writes it. An infinite number or NaN (.inf,
// -.Inf, .nan) and binary data (!!binary) are refused: written as strings
// they would mean something else. (Before, the check of the result failed
// on them, as an internal error.)
func (d *Doc) jsonValues() error {
	if d.opts.Format != JSON {
		return nil
	}
	what := ""
	eachNode(d.Want, func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!timestamp" {
			n.Tag, n.Style = "!!str", 0
		}
		if what == "" {
			what = notJSON(n)
		}
	})
	if what == "" {
		return nil
	}
	return &MergeError{Msg: fmt.Sprintf("%s brings %s, which a JSON document cannot hold (JSON has no infinity, NaN or binary data): "+
		"write it as a string, or put it in a YAML document", d.opts.who(), what)}
}

// notJSON names what scalar n is when JSON cannot spell it, or is "".
func notJSON(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return ""
	}
	switch n.ShortTag() {
	case "!!binary":
		return "binary data (!!binary)"
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return fmt.Sprintf("the number %s", n.Value)
		}
	}
	return ""
}
