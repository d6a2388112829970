package plan

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// build makes the value created for path[from:]: the maps and lists the
// segments name, with the setter's value at the end.
func build(path fieldpath.Path, from int, set func(*yaml.Node) (*yaml.Node, error)) (*yaml.Node, error) {
	if from == len(path) {
		return set(nil)
	}
	seg := path[from]
	switch seg.Kind {
	case fieldpath.Field:
		return buildInside(path, from, set, func(v *yaml.Node) *yaml.Node { return mapOf(seg.Key, v) })
	case fieldpath.Index:
		if seg.Index != 0 {
			return nil, &locate.Error{Segment: from, Msg: fmt.Sprintf("cannot create element %d of a new list (only 0)", seg.Index)}
		}
		return buildInside(path, from, set, listOf)
	case fieldpath.Match:
		el, err := buildElement(path, from, set, span.StrTag)
		if err != nil {
			return nil, err
		}
		return listOf(el), nil
	}
	return nil, &locate.Error{Segment: from, Msg: "cannot create what * stands for; name the key or element"}
}

// buildInside builds the value for path[from+1:] and puts it in the map
// or list that segment from makes (wrap).
func buildInside(path fieldpath.Path, from int, set func(*yaml.Node) (*yaml.Node, error), wrap func(*yaml.Node) *yaml.Node) (*yaml.Node, error) {
	child, err := build(path, from+1, set)
	if err != nil {
		return nil, err
	}
	return wrap(child), nil
}

// buildElement makes the list element [key=value] creates: a map holding
// key: value, the value tagged keyTag, and whatever the rest of the path
// adds, or for [=value] the scalar itself.
func buildElement(path fieldpath.Path, at int, set func(*yaml.Node) (*yaml.Node, error), keyTag string) (*yaml.Node, error) {
	seg := path[at]
	if at+1 == len(path) {
		return set(nil)
	}
	if seg.Key == "" {
		return nil, &locate.Error{Segment: at + 1, Msg: fmt.Sprintf("cannot go into the scalar element that %s creates", seg)}
	}
	next := path[at+1]
	if next.Kind != fieldpath.Field {
		return nil, &locate.Error{Segment: at + 1, Msg: fmt.Sprintf("the element %s creates is a map; %s cannot go into it", seg, next)}
	}
	if next.Key == seg.Key {
		return nil, &locate.Error{Segment: at + 1, Msg: fmt.Sprintf("%s would overwrite the key %s matches on", next, seg)}
	}
	rest, err := build(path, at+1, set)
	if err != nil {
		return nil, err
	}
	matchValue := &yaml.Node{Kind: yaml.ScalarNode, Tag: keyTag, Value: seg.Value}
	rest.Content = append([]*yaml.Node{{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: seg.Key}, matchValue}, rest.Content...)
	return rest, nil
}

// buildElementOf is buildElement for the existing list: the matched field
// takes the type its siblings have (a port number stays a number).
func (p *planner) buildElementOf(list *span.Node, path fieldpath.Path, at int, set func(*yaml.Node) (*yaml.Node, error)) (*yaml.Node, error) {
	return buildElement(path, at, set, p.matchedTag(list, path[at], at))
}

// matchedTag is the tag of the field seg matches on in a new element of
// list: that of the field in the first map element that has it, where the
// value seg gives reads as that type; a string otherwise.
func (p *planner) matchedTag(list *span.Node, seg fieldpath.Segment, at int) string {
	for _, el := range list.Children {
		if el.Kind != span.Map {
			continue
		}
		if j, _ := p.d.FindKey(el, seg.Key, at); j >= 0 {
			return tagLike(el.Children[j], seg.Value)
		}
	}
	return span.StrTag
}

// tagLike is the tag of the scalar sib, when value reads as that type where
// sib is and it is not a string; a string's otherwise.
func tagLike(sib *span.Node, value string) string {
	if sib.Kind == span.Scalar && sib.Tag != span.StrTag && scalartype.At(sib, &yaml.Node{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: value}) == sib.Tag {
		return sib.Tag
	}
	return span.StrTag
}

// mapOf makes the map {key: v}.
func mapOf(key string, v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Tag: span.StrTag, Value: key}, v,
	}}
}

// listOf makes the list [v].
func listOf(v *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{v}}
}
