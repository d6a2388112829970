package fnrun

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// IsToolAnnotation reports whether an annotation belongs to kpt or
// kustomize (file path, index, resource id) rather than to the user.
// Functions must hand these back as they came: kpt decides which file a
// resource is written to by them.
func IsToolAnnotation(key string) bool {
	switch key {
	case "config.kubernetes.io/path", "config.kubernetes.io/index", "config.k8s.io/id",
		"kustomize.config.k8s.io/id":
		return true
	case "internal.config.kubernetes.io/previousNames", "internal.config.kubernetes.io/previousKinds",
		"internal.config.kubernetes.io/previousNamespaces":
		// A function that renames a resource in a kustomize build records
		// its earlier ID there, as kustomize's own transformers do.
		return false
	}
	return strings.HasPrefix(key, "internal.config.kubernetes.io/")
}

// toolAnnotations holds the tool annotations of each item, by node, so that
// whatever a transform did to metadata.annotations (a patch replacing the
// whole map, a replacement targeting it) they come out as they went in.
type toolAnnotations map[*yaml.Node][][2]string

func snapshotToolAnnotations(items []*yaml.RNode) toolAnnotations {
	s := make(toolAnnotations, len(items))
	for _, it := range items {
		if kv := readToolAnnotations(it); kv != nil {
			s[it.YNode()] = kv
		}
	}
	return s
}

// readToolAnnotations returns the tool annotations of an item in their order.
func readToolAnnotations(it *yaml.RNode) [][2]string {
	a := annotationsNode(it)
	if a == nil {
		return nil
	}
	var kv [][2]string
	for i := 0; i+1 < len(a.Content); i += 2 {
		if k := a.Content[i].Value; IsToolAnnotation(k) {
			kv = append(kv, [2]string{k, a.Content[i+1].Value})
		}
	}
	return kv
}

func annotationsNode(it *yaml.RNode) *yaml.Node {
	n := it.YNode()
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, field := range []string{"metadata", "annotations"} {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		// Keys as spelled, as kyaml (and rlio's migration) read them: not
		// yamltree.Lookup, which takes an aliased key for the key it
		// stands for.
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == field {
				next = n.Content[i+1]
				break
			}
		}
		n = next
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	return n
}

// restore puts back, on every item that was there before, the tool
// annotations a transform removed or changed, and drops those it added.
// Items the transform created are left as they are.
func (s toolAnnotations) restore(items []*yaml.RNode) {
	for _, it := range items {
		want, known := s[it.YNode()]
		if !known && annotationsNode(it) == nil {
			continue
		}
		got := readToolAnnotations(it)
		if !known || equalPairs(got, want) {
			continue
		}
		had := map[string]bool{}
		for _, kv := range want {
			had[kv[0]] = true
			_ = it.PipeE(yaml.SetAnnotation(kv[0], kv[1]))
		}
		for _, kv := range got {
			if !had[kv[0]] {
				_ = it.PipeE(yaml.ClearAnnotation(kv[0]))
			}
		}
	}
}

func equalPairs(a, b [][2]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkMetadata refuses items whose metadata kpt, kustomize and every
// function rely on is malformed (labels: [a]), naming the resource and the
// field, before any transform trips over them.
func checkMetadata(items []*yaml.RNode) error {
	var errs []string
	for _, it := range items {
		errs = append(errs, itemShapeProblems(it.YNode())...)
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("malformed input: %s", strings.Join(errs, "; "))
}

// itemShapeProblems is what checkMetadata finds wrong with one item.
func itemShapeProblems(n *yaml.Node) []string {
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return []string{fmt.Sprintf("an item is not a map (line %d)", n.Line)}
	}
	var errs []string
	for _, f := range []string{"apiVersion", "kind"} {
		if v := yamltree.Lookup(n, f); v != nil && v.Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Sprintf("%s: %s: must be a string (line %d)", describeLoose(n), f, v.Line))
		}
	}
	meta := yamltree.Lookup(n, "metadata")
	switch {
	case meta == nil:
		return errs
	case meta.Kind != yaml.MappingNode:
		return append(errs, fmt.Sprintf("%s: metadata: must be a map", describeLoose(n)))
	}
	for _, f := range []string{"name", "namespace"} {
		if v := yamltree.Lookup(meta, f); v != nil && v.Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Sprintf("%s: metadata.%s: must be a string (line %d)", describeLoose(n), f, v.Line))
		}
	}
	for _, f := range []string{"labels", "annotations"} {
		errs = append(errs, stringMapProblems(n, f, yamltree.Lookup(meta, f))...)
	}
	return errs
}

// stringMapProblems checks that metadata's labels or annotations, when
// given, are a map of strings.
func stringMapProblems(item *yaml.Node, field string, m *yaml.Node) []string {
	if m == nil || (m.Kind == yaml.ScalarNode && m.Tag == "!!null") {
		return nil
	}
	if m.Kind != yaml.MappingNode {
		return []string{fmt.Sprintf("%s: metadata.%s: must be a map of strings", describeLoose(item), field)}
	}
	var errs []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i+1].Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Sprintf("%s: metadata.%s.%s: must be a string", describeLoose(item), field, m.Content[i].Value))
		}
	}
	return errs
}

// describeLoose names a resource without kyaml's getters, which panic on
// malformed metadata.
func describeLoose(n *yaml.Node) string {
	str := func(m *yaml.Node, k string) string {
		if m == nil || m.Kind != yaml.MappingNode {
			return ""
		}
		if v := yamltree.Lookup(m, k); v != nil && v.Kind == yaml.ScalarNode {
			return v.Value
		}
		return ""
	}
	meta := yamltree.Lookup(n, "metadata")
	name := str(meta, "name")
	if ns := str(meta, "namespace"); ns != "" {
		name = ns + "/" + name
	}
	return str(n, "apiVersion") + " " + str(n, "kind") + " " + name
}
