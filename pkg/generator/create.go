package generator

import (
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// create adds the generated resource. One an earlier run made is
// regenerated in its place.
func (r *run) create(e entry, pairs []kv.Pair) (result *framework.Result) {
	res, idx, result := r.generate(e, pairs)
	if result != nil {
		return result
	}
	oldName, verb := e.args.Name, "created"
	step := r.watch.Created(e.where)
	defer func() {
		if result == nil {
			step.DoneAs(res)
		}
	}()
	if idx >= 0 {
		oldName, verb = r.req.Items[idx].GetName(), "regenerated (an earlier run's output)"
		step = r.watch.Before(e.where, r.req.Items[idx])
		if result := r.regenerate(e, res, idx); result != nil {
			return result
		}
	} else {
		r.req.Items = append(r.req.Items, res)
		idx = len(r.req.Items) - 1 // a ConfigMap or Secret refers to nothing: refs needs no update
	}
	defer r.remember(idx)
	defer func() { r.done = verb + " " + fnrun.Describe(res) }()
	return r.name(e, res, e.args.Name, oldName)
}

// generate builds the generator's resource, marked as ours, and finds the
// one an earlier run made (-1: none). Any other resource by its name is in
// the way.
func (r *run) generate(e entry, pairs []kv.Pair) (*yaml.RNode, int, *framework.Result) {
	res, err := build(e, pairs)
	if err != nil {
		return nil, -1, fnrun.Errorf(e.where, nil, "", "%v", err)
	}
	idx, ours, err := r.find(e, false)
	if err != nil {
		return nil, -1, fnrun.Errorf(e.where, nil, "", "behavior create: %v", err)
	}
	if idx >= 0 && !ours {
		return nil, -1, fnrun.Errorf(e.where, r.req.Items[idx], "", "behavior create: the resource already exists; use behavior merge or replace to change it")
	}
	if err := setMetaKey(res, "annotations", GeneratedFrom, e.args.Name); err != nil {
		return nil, -1, fnrun.Errorf(e.where, res, "", "%v", err)
	}
	return res, idx, nil
}

// regenerate puts res in the place of item idx, an earlier run's output: in
// its namespace when the generator names none (a later pipeline step may
// have set it), with the tools' bookkeeping annotations it had.
func (r *run) regenerate(e entry, res *yaml.RNode, idx int) *framework.Result {
	old := r.req.Items[idx]
	if ns := old.GetNamespace(); e.args.Namespace == "" && ns != "" {
		// Appended after the other metadata, where kpt's
		// set-namespace and a JSON patch add put it.
		if err := res.SetNamespace(ns); err != nil {
			return fnrun.Errorf(e.where, res, "metadata.namespace", "%v", err)
		}
	}
	keepToolAnnotations(old, res)
	r.forget(idx)
	r.req.Items[idx] = res
	return nil
}
