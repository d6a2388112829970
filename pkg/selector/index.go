package selector

import (
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
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
	// Earlier are the IDs the resource had before kustomize (or a function
	// run inside a kustomize build) renamed it, oldest first. A selector
	// matches the current ID or any earlier one, as kustomize's do.
	Earlier []ID
}

// ID is one kind, name and namespace a resource has or had. Group and
// version are always the current ones (kustomize records no earlier ones).
type ID struct{ Kind, Name, Namespace string }

// kustomize's build annotations for earlier IDs: comma-separated, one
// position per earlier ID, oldest first. Namespaces are effective ones
// ("default" for a resource without one).
const (
	PreviousNames      = "internal.config.kubernetes.io/previousNames"
	PreviousKinds      = "internal.config.kubernetes.io/previousKinds"
	PreviousNamespaces = "internal.config.kubernetes.io/previousNamespaces"
	// notANamespace is the earlier namespace kustomize records for a
	// cluster-scoped resource.
	notANamespace = "_non_namespaceable_"
)

// IDs returns the current ID followed by the earlier ones, oldest first.
func (r *Resource) IDs() []ID {
	return append([]ID{{r.Kind, r.Name, r.Namespace}}, r.Earlier...)
}

// earlierIDs reads kustomize's previous-ID annotations. Lists of different
// lengths (which kustomize itself refuses) give no earlier IDs.
func earlierIDs(ann map[string]string) []ID {
	names, ok := ann[PreviousNames]
	if !ok {
		return nil
	}
	ns := strings.Split(ann[PreviousNamespaces], ",")
	kinds := strings.Split(ann[PreviousKinds], ",")
	list := strings.Split(names, ",")
	if len(ns) != len(list) || len(kinds) != len(list) {
		return nil
	}
	ids := make([]ID, len(list))
	for i := range list {
		ids[i] = ID{Kind: kinds[i], Name: list[i], Namespace: ns[i]}
		if ns[i] == notANamespace {
			ids[i].Namespace = ""
		}
	}
	return ids
}

// RecordEarlierID appends a resource's ID before a rename to kustomize's
// previous-ID annotations, as kustomize's own transformers do, so that
// later steps of a kustomize build still find it by its earlier name.
// Outside a kustomize build (no kustomize.config.k8s.io/id annotation on
// the resource) it does nothing: kpt would write the annotations to disk.
func RecordEarlierID(n *yaml.RNode, before ID) error {
	ann := n.GetAnnotations()
	if _, inKustomize := ann["kustomize.config.k8s.io/id"]; !inKustomize {
		return nil
	}
	if before.Namespace == "" {
		before.Namespace = "default"
	}
	for _, kv := range [][2]string{{PreviousNames, before.Name}, {PreviousNamespaces, before.Namespace}, {PreviousKinds, before.Kind}} {
		v := kv[1]
		if old, ok := ann[kv[0]]; ok {
			v = old + "," + v
		}
		if err := n.PipeE(yaml.SetAnnotation(kv[0], v)); err != nil {
			return err
		}
	}
	return nil
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
	// Not kyaml's getters, which panic on metadata of the wrong shape
	// (labels: [a]).
	meta := yamltree.Lookup(n.YNode(), "metadata")
	r.Labels = stringMap(yamltree.Lookup(meta, "labels"))
	r.Annotations = stringMap(yamltree.Lookup(meta, "annotations"))
	r.Guarded = r.isBookkeeping()
	r.Earlier = earlierIDs(r.Annotations)
	return r
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
	// byLabel lists the items having each label with each value
	// (labelKey), built when a selector first asks (labelled).
	byLabel map[string][]int
	config  *Resource // the function's config, guarded wherever it appears
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
		for _, k := range kinds(&ix.resources[i]) {
			ix.byKind[k] = append(ix.byKind[k], i)
		}
	}
	return ix
}

// kinds lists the distinct kinds a resource has or had: it is a candidate
// for a selector naming any of them.
func kinds(r *Resource) []string {
	ks := []string{r.Kind}
	for _, id := range r.Earlier {
		if !slices.Contains(ks, id.Kind) {
			ks = append(ks, id.Kind)
		}
	}
	return ks
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
	old, oldLabels := kinds(&ix.resources[i]), ix.resources[i].Labels
	ix.resources[i] = ix.describe(i)
	ix.relabel(i, oldLabels)
	now := kinds(&ix.resources[i])
	for _, k := range old {
		if !slices.Contains(now, k) {
			ix.byKind[k] = without(ix.byKind[k], i)
		}
	}
	for _, k := range now {
		if !slices.Contains(old, k) {
			ix.byKind[k] = insertSorted(ix.byKind[k], i)
		}
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

// candidates returns, in order, the items a matcher needs to look at:
// those of the kind it names, or those having a label it asks for with
// the value it asks (whichever are fewer); false when it names neither
// and every item must be looked at.
func (ix *Index) candidates(m *Matcher) ([]int, bool) {
	kind, byKind := m.literalKind()
	if k, v, ok := m.labelEquals(); ok {
		if l := ix.labelled(k, v); !byKind || len(l) < len(ix.byKind[kind]) {
			return l, true
		}
	}
	if byKind {
		return ix.byKind[kind], true
	}
	return nil, false
}

// labelKey is the key of byLabel for the label k with the value v.
func labelKey(k, v string) string { return k + "\x00" + v }

// labelled lists the items having the label k with the value v, in order.
func (ix *Index) labelled(k, v string) []int {
	if ix.byLabel == nil {
		ix.byLabel = map[string][]int{}
		for i := range ix.resources {
			for k, v := range ix.resources[i].Labels {
				ix.byLabel[labelKey(k, v)] = append(ix.byLabel[labelKey(k, v)], i)
			}
		}
	}
	return ix.byLabel[labelKey(k, v)]
}

// relabel keeps byLabel in step with item i's labels, which were old.
func (ix *Index) relabel(i int, old map[string]string) {
	if ix.byLabel == nil {
		return
	}
	now := ix.resources[i].Labels
	for k, v := range old {
		if w, ok := now[k]; !ok || w != v {
			ix.byLabel[labelKey(k, v)] = without(ix.byLabel[labelKey(k, v)], i)
		}
	}
	for k, v := range now {
		if w, ok := old[k]; !ok || w != v {
			ix.byLabel[labelKey(k, v)] = insertSorted(ix.byLabel[labelKey(k, v)], i)
		}
	}
}

// union merges lists of items in order into one, in order.
func union(lists [][]int) []int {
	seen := map[int]bool{}
	var all []int
	for _, l := range lists {
		for _, i := range l {
			if !seen[i] {
				seen[i] = true
				all = append(all, i)
			}
		}
	}
	sort.Ints(all)
	return all
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
