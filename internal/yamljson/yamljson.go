package yamljson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// Encode encodes a yaml node as JSON, keeping the order of map keys. Scalars
// take their YAML types (a quoted "80" stays a string). What aliases expand
// to is charged to b (nil: a budget of the call's own, made when the first
// alias is met): a few nested aliases, or ten thousand of one large value,
// would otherwise expand into gigabytes ("billion laughs").
func Encode(n *yaml.Node, b *budget.Budget) ([]byte, error) {
	w := &jsonWriter{budget: b}
	if err := w.write(n); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

type jsonWriter struct {
	b      bytes.Buffer
	budget *budget.Budget
	// aliased is how many aliases deep the writer is: what it writes there
	// is charged.
	aliased int
}

func (w *jsonWriter) write(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		return w.alias(n)
	}
	if err := w.charge(n); err != nil {
		return err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			w.b.WriteString("null")
			return nil
		}
		return w.write(n.Content[0])
	case yaml.MappingNode:
		return w.mapping(n)
	case yaml.SequenceNode:
		return w.sequence(n)
	case yaml.ScalarNode:
		return writeScalar(&w.b, n)
	}
	return nil
}

// alias writes what alias n stands for; a budget it overruns is told by
// the line of the outermost alias.
func (w *jsonWriter) alias(n *yaml.Node) error {
	if n.Alias == nil {
		return fmt.Errorf("line %d: an alias without an anchor", n.Line)
	}
	w.aliased++
	err := w.write(n.Alias)
	w.aliased--
	if w.aliased == 0 && errors.Is(err, budget.ErrSpent) {
		return fmt.Errorf("line %d: YAML aliases expand to too many nodes: %w", n.Line, err)
	}
	return err
}

// charge charges the budget for a node written through an alias, and its
// text.
func (w *jsonWriter) charge(n *yaml.Node) error {
	if w.aliased == 0 {
		return nil
	}
	w.budget = budget.Or(w.budget)
	if err := w.budget.Nodes(1); err != nil {
		return err
	}
	return w.budget.Bytes(len(n.Value))
}

// mapping writes a map as a JSON object, its keys in order.
func (w *jsonWriter) mapping(n *yaml.Node) error {
	w.b.WriteByte('{')
	for i := 0; i+1 < len(n.Content); i += 2 {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if err := w.member(n.Content[i], n.Content[i+1]); err != nil {
			return err
		}
	}
	w.b.WriteByte('}')
	return nil
}

// member writes the entry k: v of a map; JSON's keys are strings, so k
// must be a scalar.
func (w *jsonWriter) member(k, v *yaml.Node) error {
	if k.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a map key must be a scalar for JSON", k.Line)
	}
	writeString(&w.b, k.Value)
	w.b.WriteByte(':')
	return w.write(v)
}

// sequence writes a list as a JSON array.
func (w *jsonWriter) sequence(n *yaml.Node) error {
	w.b.WriteByte('[')
	for i, c := range n.Content {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if err := w.write(c); err != nil {
			return err
		}
	}
	w.b.WriteByte(']')
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
		writeNumber(b, n.Value)
	default:
		writeString(b, n.Value)
	}
	return nil
}

// writeNumber writes a YAML number as JSON: as written when JSON reads it
// so, else in decimal (0x1F as 31).
func writeNumber(b *bytes.Buffer, v string) {
	if json.Valid([]byte(v)) {
		b.WriteString(v)
		return
	}
	if i, err := strconv.ParseInt(v, 0, 64); err == nil {
		b.WriteString(strconv.FormatInt(i, 10))
		return
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		// .inf and .nan have no JSON number: carry their text, so a
		// document holding one can still be patched elsewhere
		writeString(b, v)
		return
	}
	b.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
}

func writeString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a Go string always encodes
	b.Write(enc)
}
