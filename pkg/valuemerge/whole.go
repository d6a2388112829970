package valuemerge

import (
	"bytes"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	yaml "go.yaml.in/yaml/v3"
)

type ystyle struct {
	unit    int
	compact bool // sequences in mappings start at the key's column
}

// nullKeys spells empty nulls ("key:", "{0}") "null", keys and values
// alike: the encoder would write an empty string.
func nullKeys(n *yaml.Node) {
	if isNull(n) && n.Value == "" {
		n.Value, n.Tag, n.Style = "null", "!!null", 0
	}
	for _, c := range n.Content {
		nullKeys(c)
	}
}

// quoteAmbiguous quotes the plain strings of a document written whole that
// YAML 1.1 readers would take for something else (12:30, on): the project's
// one quoting rule (package scalar).
func quoteAmbiguous(n *yaml.Node) {
	scalar.QuoteIfNeeded(n)
	for _, c := range n.Content {
		quoteAmbiguous(c)
	}
}

// hasAmbiguousPlain reports whether n holds a plain string quoteAmbiguous
// would quote.
func hasAmbiguousPlain(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!str" && scalar.NeedsQuotes(n.Value) {
		return true
	}
	for _, c := range n.Content {
		if hasAmbiguousPlain(c) {
			return true
		}
	}
	return false
}

func encodeYAML(n *yaml.Node, st ystyle) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(st.unit)
	if st.compact {
		enc.CompactSeqIndent()
	}
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func detectYAMLStyle(roots ...*yaml.Node) ystyle {
	st := ystyle{}
	seqKnown := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.MappingNode:
			if n.Style&yaml.FlowStyle != 0 {
				return
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if v.Style&yaml.FlowStyle == 0 && v.Line > k.Line {
					if st.unit == 0 && v.Kind == yaml.MappingNode && v.Column > k.Column {
						st.unit = v.Column - k.Column
					}
					if !seqKnown && v.Kind == yaml.SequenceNode {
						st.compact, seqKnown = v.Column == k.Column, true
					}
				}
				walk(v)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	for _, r := range roots {
		walk(r)
	}
	if st.unit == 0 {
		st.unit = 2
	}
	if !seqKnown {
		st.compact = true
	}
	return st
}

func lineBreakOf(s string) string {
	if strings.HasSuffix(s, "\n") {
		return "\n"
	}
	return ""
}
