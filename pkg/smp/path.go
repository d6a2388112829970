package smp

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// seg is one step of the path from the root to where the merge is. The merger
// keeps them in a stack that it only turns into text for an error, so a
// successful merge pays nothing for paths. (Links of a chain on the stack of
// the recursion would be simpler, but Go's escape analysis moves each of them
// to the heap.)
type seg struct {
	// field is a map key; used when elem is false.
	field string
	// elem marks a list element, labelled [k=v,...] by its merge keys when
	// its list has them, [index] (its index in the patch list) otherwise.
	elem  bool
	index int
	node  *yaml.Node   // the patch element
	list  *schema.Type // its list
}

func (m *merger) pushField(k string) { m.path = append(m.path, seg{field: k}) }

func (m *merger) pushElem(idx int, node *yaml.Node, list *schema.Type) {
	m.path = append(m.path, seg{elem: true, index: idx, node: node, list: list})
}

func (m *merger) pop() { m.path = m.path[:len(m.path)-1] }

// errorf reports an error at the current path.
func (m *merger) errorf(format string, args ...any) *Error {
	return &Error{Path: formatPath(m.path), Msg: fmt.Sprintf(format, args...)}
}

// formatPath writes a path in kustomize's notation:
// spec.containers[name=app].ports[containerPort=53,protocol=TCP], args[2],
// metadata.annotations.[app.kubernetes.io/name] (keys with dots or brackets
// are bracketed).
func formatPath(path []seg) string {
	var b strings.Builder
	for _, s := range path {
		if s.elem {
			b.WriteString(elementLabel(s))
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if strings.ContainsAny(s.field, ".[]") {
			b.WriteByte('[')
			b.WriteString(s.field)
			b.WriteByte(']')
		} else {
			b.WriteString(s.field)
		}
	}
	return b.String()
}

// elementLabel is [k=v,...] with the element's merge-key values (defaults
// filled in), or [index] when the list has no keys or the element lacks one.
func elementLabel(s seg) string {
	if strategy, keys := listStrategy(s.list); strategy == schema.MergeByKeys && s.node != nil {
		if label, ok := keysLabel(yamltree.Resolve(s.node), keys, s.list); ok {
			return label
		}
	}
	return "[" + strconv.Itoa(s.index) + "]"
}

// keysLabel is [k=v,...] for element n of a list of type t merged by
// keys; false when n is no map or lacks a key.
func keysLabel(n *yaml.Node, keys []string, t *schema.Type) (string, bool) {
	if n.Kind != yaml.MappingNode {
		return "", false
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v, ok := keyOf(n, k, t)
		if !ok {
			return "", false
		}
		parts = append(parts, k+"="+v)
	}
	return "[" + strings.Join(parts, ",") + "]", true
}
