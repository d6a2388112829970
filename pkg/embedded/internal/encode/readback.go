package encode

import (
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	yaml "go.yaml.in/yaml/v3"
)

// ReadBack is what reading v, rendered new into a document of format f,
// gives: its maps, lists and scalars with the types and null spellings
// they are written with.
func ReadBack(f span.Format, v *yaml.Node) *yaml.Node {
	if v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		out := &yaml.Node{Kind: v.Kind}
		for _, c := range v.Content {
			out.Content = append(out.Content, ReadBack(f, c))
		}
		return out
	}
	tag := scalartype.At(nil, v)
	if f == span.JSON {
		return JSONReadBack(tag, v.Value)
	}
	written := YAMLScalar(tag, v.Value, nil, false, "\n")
	return YAMLReadBack(tag, v.Value, written)
}

// JSONReadBack is the scalar a JSON parser reads from what JSONScalar
// wrote.
func JSONReadBack(tag, value string) *yaml.Node {
	text := value
	switch tag {
	case span.BoolTag:
		text = JSONScalar(tag, value)
	case span.NullTag:
		text = "null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text}
}

// YAMLReadBack is the scalar yaml.v3 reads from written, what YAMLScalar
// wrote for value.
func YAMLReadBack(tag, value, written string) *yaml.Node {
	if tag == span.NullTag {
		value = written
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}
