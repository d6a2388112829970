package valuemerge

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/scalar"
	yaml "go.yaml.in/yaml/v3"
)

// sameMeaning reports whether two values of a document in format f mean
// the same to a reader that decodes them (reading.value): what the check
// of every write compares. In JSON, << is a key like any other.
func sameMeaning(a, b *yaml.Node, f Format) bool {
	r := reading{inherits: f != JSON}
	va, err1 := r.value(a)
	vb, err2 := r.value(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// reading decodes nodes as a reader of a format does: YAML readers take
// a plain << key for inheritance (inherits), JSON readers for a key.
type reading struct{ inherits bool }

// notANumber stands for NaN in a decoded value, which equals nothing, not
// even itself.
type notANumber struct{}

// scalarValue is a scalar decoded, NaN as notANumber.
func scalarValue(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	if f, ok := v.(float64); ok && math.IsNaN(f) {
		return notANumber{}, nil
	}
	return v, nil
}

// keyID identifies a mapping key as readers do: ~, null and an empty key
// are one key when decoded (yaml.v3 also takes "null" and null for the
// same key); other scalars by what yaml.v3 resolves them to (package
// scalar: 0 and "0", true and True are one key); a map or list used as a
// key by its content.
func keyID(k *yaml.Node) string {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		var b strings.Builder
		writeKey(&b, k)
		return b.String()
	}
	switch k.Value {
	case "", "~", "null", "Null", "NULL":
		return "!!null"
	}
	return "v3\x00" + scalar.JSONKey(k)
}

// writeKey writes a key that is a map or a list as text that tells it from
// any other.
func writeKey(b *strings.Builder, n *yaml.Node) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	fmt.Fprintf(b, "(%d %q", n.Kind, n.Value)
	for _, c := range n.Content {
		writeKey(b, c)
	}
	b.WriteByte(')')
}

// value is what a node means to a reader that decodes it: mappings
// become maps keyed by keyID (the last of equal keys wins; a string key as
// the JSON key yaml.v3 makes of it), with what << keys bring in;
// sequences slices; scalars their decoded values.
func (r reading) value(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return r.value(n.Content[0])
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, fmt.Errorf("unknown alias %q", n.Value)
		}
		return r.value(n.Alias)
	case yaml.MappingNode:
		return r.mapping(n)
	case yaml.SequenceNode:
		return r.seq(n)
	}
	return scalarValue(n)
}

// seq is value for a sequence.
func (r reading) seq(n *yaml.Node) ([]any, error) {
	out := make([]any, len(n.Content))
	for i, c := range n.Content {
		v, err := r.value(c)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// mapping is value for a mapping: its own entries, then those its <<
// keys bring in (YAML).
func (r reading) mapping(n *yaml.Node) (map[string]any, error) {
	m := make(map[string]any, len(n.Content)/2)
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if r.inherits && inherit.IsKey(n.Content[i]) {
			merged = append(merged, n.Content[i+1])
			continue
		}
		v, err := r.value(n.Content[i+1])
		if err != nil {
			return nil, err
		}
		m[strings.TrimPrefix(keyID(n.Content[i]), "v3\x00")] = v
	}
	for _, mv := range merged {
		if err := r.inheritFrom(m, mv); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// inheritFrom adds to m the entries of the maps a << key's value mv names
// that m does not set itself; of several maps, the first wins.
func (r reading) inheritFrom(m map[string]any, mv *yaml.Node) error {
	v, err := r.value(mv)
	if err != nil {
		return err
	}
	maps, ok := v.([]any)
	if !ok {
		maps = []any{v}
	}
	for _, mm := range maps {
		mm, ok := mm.(map[string]any)
		if !ok {
			return fmt.Errorf("line %d: a << key takes a map or a list of maps", mv.Line)
		}
		for k, x := range mm {
			if _, set := m[k]; !set {
				m[k] = x
			}
		}
	}
	return nil
}
