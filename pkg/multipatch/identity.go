package multipatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The identity guard: a patch that may touch a resource's apiVersion, kind
// or metadata (document.touchesIdentity) leaves it a resource still, named
// as before unless the options allow a new name, and a rename is recorded
// for later steps of a kustomize build and followed by the references.

// guard is what a resource was before a patch that may touch its identity.
type guard struct {
	before identity
	meta   *yaml.Node // metadata as it was, whole
}

func guardOf(res *yaml.RNode) guard {
	g := guard{before: identityOf(res)}
	if m := res.Field("metadata"); m != nil {
		g.meta = yaml.CopyYNode(m.Value.YNode())
	}
	return g
}

// keepIdentity checks item i after document d of entry c patched it,
// guarded by g: what the patch left of the identity, what it removed (put
// back, with a warning), the changes the options do not allow (undone), a
// rename (recorded). It returns false when the patch cannot apply, which
// it reports.
func (a *applier) keepIdentity(c *compiled, d *document, i int, g guard) bool {
	res := a.Ix.Item(i)
	nulled, field, problem := normalizeIdentity(res)
	if problem != "" {
		// named as it was: the run fails, and the items go out as they
		// came in
		g.before.put(res, g.meta)
		a.report(c, res, fmt.Errorf("%s %s; a resource keeps its apiVersion, kind and metadata.name as strings (and metadata as a map), so the patch cannot apply", field, problem))
		return false
	}
	if removed := g.before.restoreRemoved(res); len(removed) > 0 {
		a.Warnf(c.name, res, removed[0], "the patch %s; a resource keeps its identity, so it was restored (to delete the resource, use $patch: delete)", removal(nulled, removed))
	}
	strategic := d.Type == patch.Strategic
	if undone := g.before.restore(res, c.Options, strategic); undone != "" && !strategic {
		a.Warnf(c.name, res, undone, "the patch changes %s; the change was undone (set options.%s: true to allow it)", undone, optionFor(undone))
	}
	if err := a.recordRename(res, g.before); err != nil {
		a.report(c, res, err)
		return false
	}
	a.Ix.Refresh(i)
	return true
}

// removal says what a patch did to the identity fields it removed, some
// by setting them to null.
func removal(nulled, removed []string) string {
	switch {
	case slices.Equal(nulled, removed):
		return "sets " + strings.Join(nulled, ", ") + " to null"
	case len(nulled) > 0:
		return "sets " + strings.Join(nulled, ", ") + " to null, which removes " + strings.Join(removed, ", ")
	}
	return "removes " + strings.Join(removed, ", ")
}

// recordRename records a resource's earlier ID when the patch (as the
// options allow) changed its kind, name or namespace: later steps of a
// kustomize build find it by that ID. A new name in the same kind and
// namespace is a rename references follow (followRenames).
func (a *applier) recordRename(res *yaml.RNode, before identity) error {
	now := identityOf(res)
	if now.kind == before.kind && now.name == before.name && now.namespace == before.namespace {
		return nil
	}
	if err := selector.RecordEarlierID(res, selector.ID{Kind: before.kind, Name: before.name, Namespace: before.namespace}); err != nil {
		return err
	}
	if now.kind == before.kind && now.namespace == before.namespace {
		a.renames = append(a.renames, namerefs.Target{Kind: now.kind, Namespace: now.namespace, Old: before.name, New: now.name})
	}
	return nil
}

func optionFor(field string) string {
	if field == "kind" {
		return "allowKindChange"
	}
	return "allowNameChange"
}

// identity is what a patch may not change unless the options allow it.
// (kpt's and kustomize's own annotations are restored by fnrun.)
type identity struct{ apiVersion, kind, name, namespace string }

func identityOf(r *yaml.RNode) identity {
	return identity{r.GetApiVersion(), r.GetKind(), r.GetName(), r.GetNamespace()}
}

// normalizeIdentity checks the identity fields a patch left: apiVersion,
// kind and metadata.name are strings, metadata a map, metadata.namespace a
// string if anything. One set to null is taken as removed (restoreRemoved
// puts it back, as for a removal) and listed in nulled. Anything else, a
// number, a list, metadata: "", is a problem: field names it and problem
// says what the patch made of it.
func normalizeIdentity(r *yaml.RNode) (nulled []string, field, problem string) {
	root := r.YNode()
	for _, f := range []string{"apiVersion", "kind", "metadata"} {
		i := fieldIndex(root, f)
		if i < 0 {
			continue
		}
		v := root.Content[i+1]
		switch {
		case yamltree.IsNull(v):
			root.Content = append(root.Content[:i:i], root.Content[i+2:]...)
			nulled = append(nulled, f)
		case f == "metadata" && v.Kind != yaml.MappingNode:
			return nulled, f, "is made " + yamltree.Describe(v)
		case f != "metadata" && !isString(v):
			return nulled, f, "is made " + yamltree.Describe(v)
		}
	}
	meta := fieldIndex(root, "metadata")
	if meta < 0 {
		return nulled, "", ""
	}
	m := root.Content[meta+1]
	for _, f := range []string{"name", "namespace"} {
		i := fieldIndex(m, f)
		if i < 0 {
			continue
		}
		switch v := m.Content[i+1]; {
		case yamltree.IsNull(v):
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			if f == "name" {
				nulled = append(nulled, "metadata.name")
			}
		case !isString(v):
			return nulled, "metadata." + f, "is made " + yamltree.Describe(v)
		}
	}
	return nulled, "", ""
}

// fieldIndex is the index in m.Content of key's entry (found as every
// walk finds it, yamltree.Tree's Lookup), -1 when m has none or is no map.
func fieldIndex(m *yaml.Node, key string) int {
	if m.Kind != yaml.MappingNode {
		return -1
	}
	if j, _ := (yamltree.Tree{}).Lookup(m, key); j >= 0 {
		return 2 * j
	}
	return -1
}

func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

// put sets the identity back as it was, metadata whole, for a message
// about a resource the patch left without one.
func (id identity) put(r *yaml.RNode, meta *yaml.Node) {
	r.SetApiVersion(id.apiVersion)
	r.SetKind(id.kind)
	if meta != nil {
		_ = r.PipeE(yaml.SetField("metadata", yaml.NewRNode(meta)))
	}
}

// restoreRemoved puts back the apiVersion, kind and metadata.name a patch
// removed (a JSON patch removing /metadata, a strategic patch whose root
// says $patch: replace or $retainKeys): without them the output is no
// resource at all. It returns the fields it restored.
func (id identity) restoreRemoved(r *yaml.RNode) []string {
	var removed []string
	if r.GetApiVersion() == "" && id.apiVersion != "" {
		r.SetApiVersion(id.apiVersion)
		removed = append(removed, "apiVersion")
	}
	if r.GetKind() == "" && id.kind != "" {
		r.SetKind(id.kind)
		removed = append(removed, "kind")
	}
	if r.GetName() == "" && id.name != "" {
		_ = r.SetName(id.name)
		removed = append(removed, "metadata.name")
		if r.GetNamespace() == "" && id.namespace != "" {
			// metadata went as a whole: the namespace is part of the name
			_ = r.SetNamespace(id.namespace)
			removed = append(removed, "metadata.namespace")
		}
	}
	if len(removed) > 0 {
		identityFirst(r.YNode())
	}
	return removed
}

// identityFirst moves apiVersion, kind and metadata, restored at the end of
// a map, back to its front, where resources have them.
func identityFirst(m *yaml.Node) {
	var front, rest []*yaml.Node
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == k {
				front = append(front, m.Content[i], m.Content[i+1])
			}
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "apiVersion", "kind", "metadata":
		default:
			rest = append(rest, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = append(front, rest...)
}

// restore undoes kind and name changes the options do not allow, and for a
// strategic merge patch apiVersion and namespace changes too (its own are
// an address, not an edit; kustomize does the same). It returns the field
// whose change it undid, if any.
func (id identity) restore(r *yaml.RNode, o Options, strategic bool) string {
	undone := ""
	if strategic && r.GetApiVersion() != id.apiVersion {
		r.SetApiVersion(id.apiVersion)
	}
	if strategic && r.GetNamespace() != id.namespace {
		if id.namespace == "" {
			_ = r.PipeE(yaml.Lookup("metadata"), yaml.Clear("namespace"))
		} else {
			_ = r.SetNamespace(id.namespace)
		}
	}
	if !o.AllowKindChange && r.GetKind() != id.kind {
		r.SetKind(id.kind)
		undone = "kind"
	}
	if !o.AllowNameChange && r.GetName() != id.name {
		_ = r.SetName(id.name)
		undone = "metadata.name"
	}
	return undone
}
