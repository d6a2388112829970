package yamljson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Encode encodes a yaml node as JSON, keeping the order of map keys. Scalars
// take their YAML types (a quoted "80" stays a string); alias expansion is
// bounded.
func Encode(n *yaml.Node) ([]byte, error) {
	w := &jsonWriter{}
	if err := w.write(n); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

// maxAliases bounds alias expansion: a few nested aliases can otherwise
// expand into gigabytes ("billion laughs").
const maxAliases = 10000

type jsonWriter struct {
	b       bytes.Buffer
	aliases int
}

func (w *jsonWriter) write(n *yaml.Node) error {
	b := &w.b
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return w.write(n.Content[0])
	case yaml.AliasNode:
		if w.aliases++; w.aliases > maxAliases {
			return fmt.Errorf("line %d: too many aliases to expand", n.Line)
		}
		return w.write(n.Alias)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: a map key must be a scalar for JSON", k.Line)
			}
			writeString(b, k.Value)
			b.WriteByte(':')
			if err := w.write(n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := w.write(c); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(b, n)
	}
	return nil
}

func writeScalar(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		v, err := strconv.ParseBool(n.Value)
		if err != nil {
			return fmt.Errorf("line %d: %q is not a boolean", n.Line, n.Value)
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int", "!!float":
		if json.Valid([]byte(n.Value)) {
			b.WriteString(n.Value)
			return nil
		}
		if i, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			b.WriteString(strconv.FormatInt(i, 10))
			return nil
		}
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			// .inf and .nan have no JSON number: carry their text, so a
			// document holding one can still be patched elsewhere
			writeString(b, n.Value)
			return nil
		}
		b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	default:
		writeString(b, n.Value)
	}
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a Go string always encodes
	b.Write(enc)
}
