package generator

import (
	"github.com/patchwork-krm/patchwork/pkg/generator/hash"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

type idKey struct{ kind, ns, name string }

// genKey is a kind and the generator name in our annotation; the
// namespace is left out, so that a generator without one finds what it
// made wherever a later step put it.
type genKey struct{ kind, name string }

// itemIndex finds ConfigMaps and Secrets without scanning the items for
// each generator: by name, by our generated-from annotation, and by name
// less something that looks like a hash suffix.
type itemIndex struct {
	byName, byBase map[idKey][]int
	byGen          map[genKey][]int
}

func (r *run) index() *itemIndex {
	if r.items == nil {
		r.items = &itemIndex{byName: map[idKey][]int{}, byGen: map[genKey][]int{}, byBase: map[idKey][]int{}}
		for i := range r.req.Items {
			r.remember(i)
		}
	}
	return r.items
}

// remember indexes item i as it is now; forget removes it.
func (r *run) remember(i int) { r.indexItem(i, true) }
func (r *run) forget(i int)   { r.indexItem(i, false) }

func (r *run) indexItem(i int, add bool) {
	it := r.req.Items[i]
	if r.items == nil || !generatable(it) {
		return
	}
	kind := it.GetKind()
	for _, k := range nameKeys(it) {
		put(r.items.byName, k, i, add)
	}
	if g := it.GetAnnotations()[GeneratedFrom]; g != "" {
		put(r.items.byGen, genKey{kind, g}, i, add)
	}
	if base, ok := hash.TrimSuffix(it.GetName()); ok {
		put(r.items.byBase, idKey{kind, normNS(it.GetNamespace()), base}, i, add)
	}
}

// generatable reports whether a generator could have made it: a v1
// ConfigMap or Secret.
func generatable(it *yaml.RNode) bool {
	kind := it.GetKind()
	return (kind == "ConfigMap" || kind == "Secret") && it.GetApiVersion() == "v1"
}

// nameKeys are the names an item is found by: its own and, as kustomize
// finds a resource it renamed earlier in the build (namePrefix,
// namespace), those it had.
func nameKeys(it *yaml.RNode) []idKey {
	kind := it.GetKind()
	keys := []idKey{{kind, normNS(it.GetNamespace()), it.GetName()}}
	for _, id := range selector.Describe(it).Earlier {
		if id.Kind == kind {
			keys = append(keys, idKey{kind, normNS(id.Namespace), id.Name})
		}
	}
	return keys
}

// put adds item i to m's list for k (add) or removes it.
func put[K comparable](m map[K][]int, k K, i int, add bool) {
	list := m[k][:0:0]
	for _, j := range m[k] {
		if j != i {
			list = append(list, j)
		}
	}
	if add {
		list = append(list, i)
	}
	if len(list) == 0 {
		delete(m, k)
	} else {
		m[k] = list
	}
}

func normNS(ns string) string {
	if ns == "" {
		return "default"
	}
	return ns
}
