package selector

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Resource is what selection needs to know about one item, read once.
type Resource struct {
	Group, Version, Kind, Name, Namespace string
	Labels, Annotations                   map[string]string
	// Guarded resources are the package's own bookkeeping: the Kptfile,
	// resources annotated config.kubernetes.io/local-config: "true", and
	// the function's config. Under kpt fn render they are files in the
	// package; deleting or patching them deletes or rewrites those files.
	// A selector selects them only when it names them (see Matcher).
	Guarded bool
}

// LocalConfigAnnotation marks a resource that configures the package
// rather than being part of it (kpt and kustomize both honour it).
const LocalConfigAnnotation = "config.kubernetes.io/local-config"

// isBookkeeping reports whether a resource is the package's own: a Kptfile
// or a local-config resource.
func (r *Resource) isBookkeeping() bool {
	return r.Kind == "Kptfile" || r.Annotations[LocalConfigAnnotation] == "true"
}

// APIVersion joins group and version back: "apps/v1", or "v1" for the core group.
func (r *Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// Describe reads the identifying metadata of a resource.
func Describe(n *yaml.RNode) Resource {
	r := Resource{Kind: n.GetKind(), Name: n.GetName(), Namespace: n.GetNamespace()}
	r.Group, r.Version = SplitAPIVersion(n.GetApiVersion())
	meta := field(n.YNode(), "metadata")
	r.Labels = stringMap(field(meta, "labels"))
	r.Annotations = stringMap(field(meta, "annotations"))
	r.Guarded = r.isBookkeeping()
	return r
}

// field returns a map's field, or nil. Unlike kyaml's getters it never
// panics on a resource whose metadata has the wrong shape (labels: [a]).
func field(n *yaml.Node, name string) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == name {
			return n.Content[i+1]
		}
	}
	return nil
}

// stringMap reads a map of scalars; anything else reads as empty.
func stringMap(n *yaml.Node) map[string]string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	m := make(map[string]string, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind == yaml.ScalarNode {
			m[n.Content[i].Value] = v.Value
		}
	}
	return m
}

// SplitAPIVersion splits "apps/v1" into ("apps", "v1") and "v1" into ("", "v1").
func SplitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// Index holds the metadata of every item of a ResourceList, read once, and
// the items of each kind, so that a selector naming a kind looks at those
// only. Transforms that change an item's metadata call Refresh.
type Index struct {
	items     []*yaml.RNode
	resources []Resource
	removed   []bool
	byKind    map[string][]int
	config    *Resource // the function's config, guarded wherever it appears
}

// NewIndex indexes items. The index refers to the slice it is given.
// config is the function's config (nil if there is none): under kpt fn
// render it is also one of the items, and an item with its apiVersion,
// kind, name and namespace is guarded like the Kptfile.
func NewIndex(items []*yaml.RNode, config *yaml.RNode) *Index {
	ix := &Index{
		items:     items,
		resources: make([]Resource, len(items)),
		removed:   make([]bool, len(items)),
		byKind:    map[string][]int{},
	}
	if config != nil && !yaml.IsMissingOrNull(config) && config.YNode().Kind != yaml.SequenceNode {
		c := Describe(config)
		ix.config = &c
	}
	for i := range items {
		ix.resources[i] = ix.describe(i)
		k := ix.resources[i].Kind
		ix.byKind[k] = append(ix.byKind[k], i)
	}
	return ix
}

// describe reads item i, guarding it when it is the function's config.
func (ix *Index) describe(i int) Resource {
	r := Describe(ix.items[i])
	if c := ix.config; c != nil && r.Kind == c.Kind && r.Name == c.Name &&
		r.Namespace == c.Namespace && r.APIVersion() == c.APIVersion() {
		r.Guarded = true
	}
	return r
}

// Len is the number of indexed items, removed ones included.
func (ix *Index) Len() int { return len(ix.items) }

// Item returns item i.
func (ix *Index) Item(i int) *yaml.RNode { return ix.items[i] }

// Resource returns the indexed metadata of item i.
func (ix *Index) Resource(i int) *Resource { return &ix.resources[i] }

// Refresh re-reads item i's metadata after a transform changed it.
func (ix *Index) Refresh(i int) {
	old := ix.resources[i].Kind
	ix.resources[i] = ix.describe(i)
	if k := ix.resources[i].Kind; k != old {
		ix.byKind[old] = without(ix.byKind[old], i)
		ix.byKind[k] = insertSorted(ix.byKind[k], i)
	}
}

// Remove marks item i as deleted: no selector selects it any more.
func (ix *Index) Remove(i int) { ix.removed[i] = true }

// Removed reports whether item i was removed.
func (ix *Index) Removed(i int) bool { return ix.removed[i] }

// Items returns the items not removed, in their original order.
func (ix *Index) Items() []*yaml.RNode {
	out := make([]*yaml.RNode, 0, len(ix.items))
	for i, it := range ix.items {
		if !ix.removed[i] {
			out = append(out, it)
		}
	}
	return out
}

// candidates returns the items a matcher needs to look at, in order.
func (ix *Index) candidates(m *Matcher) []int {
	if k, ok := m.literalKind(); ok {
		return ix.byKind[k]
	}
	return nil
}

func without(s []int, v int) []int {
	for i, x := range s {
		if x == v {
			return append(s[:i:i], s[i+1:]...)
		}
	}
	return s
}

func insertSorted(s []int, v int) []int {
	i := len(s)
	for i > 0 && s[i-1] > v {
		i--
	}
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}
