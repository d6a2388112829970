package schema

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// UnknownField is a field of a patch that the patched kind does not have:
// most likely a typo (replica: 3), which a merge would add silently and the
// API server reject, or drop, at apply time.
type UnknownField struct {
	// Path is where the field is, e.g. spec.template.spec.containers[name=app];
	// "" at the top.
	Path string
	// Field is the unknown field's name, e.g. envv.
	Field string
	// Suggestion is the nearest field the kind has there, or "".
	Suggestion string
}

// FullPath is Path and Field joined.
func (u UnknownField) FullPath() string {
	if u.Path == "" {
		return u.Field
	}
	return u.Path + "." + u.Field
}

func (u UnknownField) String() string {
	msg := fmt.Sprintf("unknown field %q", u.Field)
	if u.Path != "" {
		msg += " in " + u.Path
	}
	if u.Suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", u.Suggestion)
	}
	return msg
}

// maxUnknownFields bounds what one check reports: past that, the patch is
// most likely for another kind, and more of the same helps nobody.
const maxUnknownFields = 20

// UnknownFields lists the fields of a strategic merge or JSON merge patch
// that the shape does not have, in document order. Strategic merge
// directives ($patch, $retainKeys, $setElementOrder/..., $deleteFrom...)
// are not fields and are skipped; below an unchecked shape nothing is
// checked.
func UnknownFields(patch *yaml.RNode, sh Shape) []UnknownField {
	if patch == nil {
		return nil
	}
	var c fieldCheck
	c.node(patch.YNode(), sh, "", 0)
	return c.out
}

// fieldCheck is one UnknownFields: what it found so far.
type fieldCheck struct {
	out []UnknownField
}

func (c *fieldCheck) node(n *yaml.Node, sh Shape, path string, depth int) {
	n = yamltree.Resolve(n)
	if n == nil || depth > maxSchemaDepth || len(c.out) >= maxUnknownFields {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, d := range n.Content {
			c.node(d, sh, path, depth+1)
		}
	case yaml.MappingNode:
		c.mapping(n, sh, path, depth)
	case yaml.SequenceNode:
		c.list(n, sh, path, depth)
	}
}

// mapping checks a map's keys, but strategic merge directives, against an
// Object's fields (a Map's keys are all fields).
func (c *fieldCheck) mapping(n *yaml.Node, sh Shape, path string, depth int) {
	if kind := sh.Kind(); kind != Object && kind != Map {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key := n.Content[i].Value
		if strings.HasPrefix(key, "$") {
			continue // a strategic merge directive
		}
		if child, ok := sh.Field(key); ok {
			c.node(n.Content[i+1], child, joinField(path, key), depth+1)
		} else if len(c.out) < maxUnknownFields {
			c.out = append(c.out, UnknownField{Path: path, Field: key, Suggestion: suggest.Nearest(key, sh.Names())})
		}
	}
}

// list checks a list's elements against a List's element shape.
func (c *fieldCheck) list(n *yaml.Node, sh Shape, path string, depth int) {
	if sh.Kind() != List {
		return
	}
	elem := sh.Elem()
	for i, e := range n.Content {
		c.node(e, elem, path+elementLabel(e, i), depth+1)
	}
}

func joinField(path, f string) string {
	if path == "" {
		return f
	}
	return path + "." + f
}

// elementLabel names a list element as messages do: [name=app] when it has
// a name, else its index.
func elementLabel(n *yaml.Node, i int) string {
	if name := scalar(field(n, "name")); name != "" {
		return "[name=" + name + "]"
	}
	return fmt.Sprintf("[%d]", i)
}
