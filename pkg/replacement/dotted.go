package replacement

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// dottedKey explains a missing field when the map has a key that is the
// field and the segments after it joined by dots: data.settings.json.db.host
// where the key is settings.json. Adding a `settings` field (options.create)
// is then the wrong advice; the path needs the dot escaped. It returns the
// hint (" (the key "settings.json" contains dots: write data.settings\.json.db.host)")
// or "".
func dottedKey(n *yaml.Node, path fieldpath.Path, i int) string {
	key := path[i].Key
	for j := i + 1; j < len(path); j++ {
		if path[j].Kind != fieldpath.Field && path[j].Kind != fieldpath.Index {
			return ""
		}
		key += "." + path[j].Key
		if yamltree.Lookup(n, key) == nil {
			continue
		}
		fixed := append(append(fieldpath.Path{}, path[:i]...), fieldpath.Segment{Kind: fieldpath.Field, Key: key})
		fixed = append(fixed, path[j+1:]...)
		return fmt.Sprintf(" (the key %q contains dots: escape them, %s)", key, fixed)
	}
	return ""
}

// createHint is the advice for a missing field: escape the dots of a dotted
// key, or else the field probably meant, if any, and that options.create
// adds the field. A secret resource's keys are not suggested.
func createHint(n *yaml.Node, path fieldpath.Path, i int, secret bool) string {
	if h := dottedKey(n, path, i); h != "" {
		return h
	}
	near := ""
	if !secret {
		var keys []string
		for j := 0; j+1 < len(n.Content); j += 2 {
			keys = append(keys, n.Content[j].Value)
		}
		near = suggest.Nearest(path[i].Key, keys)
	}
	return newFieldHint(near, "field")
}

// newFieldHint is the advice for a missing field or key (what): the one
// near it, if any, then options.create.
func newFieldHint(near, what string) string {
	if near == "" {
		return " (options.create: true adds it)"
	}
	return fmt.Sprintf(" (did you mean %q? if the %s is new, options.create: true adds it)", near, what)
}
