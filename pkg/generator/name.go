package generator

import (
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator/hash"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// name gives res its final name, base plus the hash of its content unless
// hashing is off, and makes the references to oldName follow.
func (r *run) name(e entry, res *yaml.RNode, base, oldName string) *framework.Result {
	newName, result := finalName(e, res, base)
	if result != nil {
		return result
	}
	if newName == oldName && res.GetName() == newName {
		return nil
	}
	if result := rename(e, res, newName); result != nil {
		return result
	}
	r.follow(e.kind, res.GetNamespace(), base, oldName, newName)
	return nil
}

// finalName is base, and the hash of res's content after it unless hashing
// is off.
func finalName(e entry, res *yaml.RNode, base string) (string, *framework.Result) {
	if e.opts.DisableNameSuffixHash {
		return base, nil
	}
	s, err := hash.Suffix(res)
	if err != nil {
		return "", fnrun.Errorf(e.where, res, "", "%v", err)
	}
	return base + "-" + s, nil
}

// rename sets res's name. In a kustomize build, later steps find it by the
// name it had, which is recorded.
func rename(e entry, res *yaml.RNode, newName string) *framework.Result {
	if cur := res.GetName(); cur != newName {
		if err := selector.RecordEarlierID(res, selector.ID{Kind: e.kind, Name: cur, Namespace: res.GetNamespace()}); err != nil {
			return fnrun.Errorf(e.where, res, "metadata.annotations", "%v", err)
		}
	}
	if err := res.SetName(newName); err != nil {
		return fnrun.Errorf(e.where, res, "metadata.name", "%v", err)
	}
	return nil
}

// follow makes the references to oldName point to newName, in ns: the
// resource's own namespace, which a later pipeline step may have set on
// what an earlier run generated without one.
func (r *run) follow(kind, ns, base, oldName, newName string) {
	if r.refs == nil {
		r.refs = namerefs.NewIndex(r.req.Items)
	}
	r.refs.Rename(namerefs.Target{Kind: kind, Namespace: ns, Old: oldName, New: newName})
	if oldName != base {
		// References may still use the generator's own name (a resource
		// added to the package after the first run).
		r.refs.Rename(namerefs.Target{Kind: kind, Namespace: ns, Old: base, New: newName})
	}
}

// nameBase is what the hash goes after when an update names a resource it
// found as oldName: the generator's name, unless the resource was found by
// an earlier name (kustomize renamed it earlier in the build, namePrefix
// say). Then it is the resource's current name, less the hash an earlier
// run of ours (ours) put there.
func nameBase(name, oldName string, ours bool) string {
	if named(oldName, name) {
		return name
	}
	if b, ok := hash.TrimSuffix(oldName); ours && ok {
		return b
	}
	return oldName
}

// named reports whether name is base or base-<hash suffix>.
func named(name, base string) bool {
	b, ok := hash.TrimSuffix(name)
	return name == base || ok && b == base
}
