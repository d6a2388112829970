package valuemerge

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	yaml "go.yaml.in/yaml/v3"
)

type ystyle struct {
	unit    int
	compact bool // sequences in mappings start at the key's column
}

// spellNull spells an empty null ("key:", "{0}", "&a" alone) "null", key
// or value: the encoder would write an empty string, and "null" stays a
// null wherever it lands, a flow list included.
func spellNull(n *yaml.Node) {
	if yamltree.IsNull(n) && n.Value == "" {
		n.Value, n.Tag, n.Style = "null", "!!null", 0
	}
}

// ambiguousPlain reports whether n is a plain string YAML 1.1 readers
// would take for something else (12:30, on), which a document written
// whole quotes: the project's one quoting rule (package scalar).
func ambiguousPlain(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!str" && scalar.NeedsQuotes(n.Value)
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
	var d styleDetector
	for _, r := range roots {
		d.walk(r)
	}
	if d.st.unit == 0 {
		d.st.unit = 2
	}
	if !d.seqKnown {
		d.st.compact = true
	}
	return d.st
}

// styleDetector finds, in the block maps of a document, the first
// indentation step of a map below a key and whether a list below a key
// starts at the key's column.
type styleDetector struct {
	st       ystyle
	seqKnown bool
}

func (d *styleDetector) walk(n *yaml.Node) {
	switch {
	case n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0:
		for i := 0; i+1 < len(n.Content); i += 2 {
			d.entry(n.Content[i], n.Content[i+1])
			d.walk(n.Content[i+1])
		}
	case n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			d.walk(c)
		}
	}
}

// entry learns from a block value on the lines below its key.
func (d *styleDetector) entry(k, v *yaml.Node) {
	if v.Style&yaml.FlowStyle != 0 || v.Line <= k.Line {
		return
	}
	if d.st.unit == 0 && v.Kind == yaml.MappingNode && v.Column > k.Column {
		d.st.unit = v.Column - k.Column
	}
	if !d.seqKnown && v.Kind == yaml.SequenceNode {
		d.st.compact, d.seqKnown = v.Column == k.Column, true
	}
}

func lineBreakOf(s string) string {
	if strings.HasSuffix(s, "\n") {
		return "\n"
	}
	return ""
}

// WriteWhole writes Want whole, where Write cannot write it as edits: YAML
// encoded from the nodes in the text's indentation and sequence style, the
// comments of the text's document and of the nodes kept, blank lines not,
// strings YAML 1.1 readers misread plain quoted; JSON as the overlay wrote
// it when that is the value, else laid out as the text lays out JSON. A
// YAML text holding several documents is not written whole (the others
// would go).
func (d *Doc) WriteWhole() (string, error) {
	if err := d.jsonValues(); err != nil {
		return "", err
	}
	if d.opts.Format == JSON {
		return d.wholeJSON()
	}
	docs, err := yamlstream.Documents([]byte(d.text))
	if err != nil || len(docs) != 1 {
		return "", fmt.Errorf("%w: a text of several YAML documents is not written whole", ErrNotInPlace)
	}
	return d.wholeYAML(docs[0], detectYAMLStyle(d.old))
}

// wholeYAML encodes Want under the comments of document node comments, in
// style. It ends in a line break when the text does, unless a block scalar
// ending the document needs one, or the line breaks the encoder wrote.
func (d *Doc) wholeYAML(comments *yaml.Node, style ystyle) (string, error) {
	doc := *comments
	doc.Content = []*yaml.Node{d.Want}
	eachNode(&doc, spellNull)
	eachNode(&doc, scalar.QuoteIfNeeded)
	out, err := encodeYAML(&doc, style)
	if err != nil {
		return "", fmt.Errorf("internal error writing YAML (please report): %v", err)
	}
	stripped := strings.TrimRight(out, "\n")
	for _, text := range []string{stripped + lineBreakOf(d.text), stripped + "\n", out} {
		if readsAs(text, d.Want) {
			return text, nil
		}
	}
	return "", fmt.Errorf("internal error writing YAML (please report): the result does not parse back to the value")
}

// wholeJSON replaces the text's value, keeping the space around it: with
// the overlay's text when that is the value, else with {} that Want's
// entries are written into, laid out as JSON is laid out around them.
func (d *Doc) wholeJSON() (string, error) {
	if o := d.opts.Overlay; o != nil && sameMeaning(o.Root, d.Want, d.opts.Format) {
		return splice(d.text, strings.TrimSpace(o.Text)), nil
	}
	if !isMap(d.Want) {
		b, err := yamljson.Encode(d.Want, nil)
		if err != nil {
			return "", fmt.Errorf("internal error writing JSON (please report): %v", err)
		}
		return splice(d.text, string(b)), nil
	}
	empty := &Doc{Want: d.Want, text: splice(d.text, "{}"), old: &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}, opts: d.opts}
	out, err := empty.Write()
	if err != nil {
		return "", fmt.Errorf("internal error writing JSON (please report): %v", err)
	}
	return out, nil
}

// splice puts value in the place of the text's value, between the space
// before and after it.
func splice(text, value string) string {
	v := strings.TrimSpace(text)
	i := strings.Index(text, v)
	return text[:i] + value + text[i+len(v):]
}

// readsAs reports whether YAML text parses, as Check parses it, to want.
func readsAs(text string, want *yaml.Node) bool {
	d, err := parseYAML(text, "result")
	return err == nil && sameMeaning(d.root, want, YAML)
}
