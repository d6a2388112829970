package treediff

import (
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// The words of a path in messages are those of the strategic merge's
// errors and findings (package smp): spec.containers[name=app].image,
// metadata.annotations.[app.kubernetes.io/name], args[2]. A label carries
// the dot before it, so that joining is concatenating.

// keyLabel is a map key's label: .key, or .[key] for a key holding a dot
// or a bracket.
func keyLabel(key string) string {
	if strings.ContainsAny(key, ".[]") {
		return ".[" + key + "]"
	}
	return "." + key
}

// elementLabel is a list element's label: [k=v,...] by the list's merge
// keys, else [name=v] when it has a name, else its position i.
func elementLabel(el *yaml.Node, i int, keys []string) string {
	el = yamltree.Resolve(el)
	if label, ok := keysLabel(el, keys); ok {
		return label
	}
	if label, ok := keysLabel(el, nameKey); ok {
		return label
	}
	return "[" + strconv.Itoa(i) + "]"
}

// keysLabel is [k=v,...] for a map holding every key as a scalar.
func keysLabel(el *yaml.Node, keys []string) (string, bool) {
	if el == nil || el.Kind != yaml.MappingNode || len(keys) == 0 {
		return "", false
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := yamltree.Resolve(yamltree.Lookup(el, k))
		if v == nil || v.Kind != yaml.ScalarNode {
			return "", false
		}
		parts = append(parts, k+"="+v.Value)
	}
	return "[" + strings.Join(parts, ",") + "]", true
}

// join writes labels as one path.
func join(labels []string) string {
	return strings.TrimPrefix(strings.Join(labels, ""), ".")
}

// WhereKey is the words of key's place in the map at where: for messages
// about places below a Change (inside a value it added).
func WhereKey(where, key string) string { return strings.TrimPrefix(where+keyLabel(key), ".") }

// WhereElement is the words of element i, el, of the list at where: by
// its name ([name=app]) when it has one, else its position.
func WhereElement(where string, el *yaml.Node, i int) string {
	return where + elementLabel(el, i, nil)
}
