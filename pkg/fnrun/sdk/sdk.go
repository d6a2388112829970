package sdk

import (
	"fmt"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Processor offers a function to a kpt SDK program: the same transform, the
// same results, the same all-or-nothing rule. The SDK keeps its own
// document model, so objects cross over as YAML.
func Processor(f fnrun.Function) fn.ResourceListProcessor {
	return fn.ResourceListProcessorFunc(func(rl *fn.ResourceList) (bool, error) {
		req, err := request(rl)
		if err != nil {
			return false, err
		}
		outcome := f.Process(req)
		for _, r := range outcome.Results {
			rl.Results = append(rl.Results, sdkResult(r))
		}
		if outcome.Failed {
			return false, nil
		}
		items, err := kubeObjects(req.Items)
		if err != nil {
			return false, err
		}
		rl.Items = items
		return true, nil
	})
}

// request is the runner's request for the SDK's list: its items and its
// config, crossed over as YAML.
func request(rl *fn.ResourceList) (*fnrun.Request, error) {
	req := &fnrun.Request{}
	for _, obj := range rl.Items {
		n, err := yaml.Parse(obj.String())
		if err != nil {
			return nil, err
		}
		req.Items = append(req.Items, n)
	}
	if rl.FunctionConfig != nil {
		n, err := yaml.Parse(rl.FunctionConfig.String())
		if err != nil {
			return nil, err
		}
		req.Config = n
	}
	return req, nil
}

// kubeObjects are the runner's items as the SDK's objects, crossed over as
// YAML.
func kubeObjects(items []*yaml.RNode) (fn.KubeObjects, error) {
	objs := make(fn.KubeObjects, 0, len(items))
	for _, n := range items {
		s, err := n.String()
		if err != nil {
			return nil, err
		}
		obj, err := fn.ParseKubeObject([]byte(s))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", fnrun.Describe(n), err)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

func sdkResult(r *framework.Result) *fn.Result {
	out := &fn.Result{Message: r.Message, Severity: fn.Severity(r.Severity), Tags: r.Tags}
	if r.ResourceRef != nil {
		out.ResourceRef = &fn.ResourceRef{
			APIVersion: r.ResourceRef.APIVersion, Kind: r.ResourceRef.Kind,
			Name: r.ResourceRef.Name, Namespace: r.ResourceRef.Namespace,
		}
	}
	if r.Field != nil {
		out.Field = &fn.Field{Path: r.Field.Path, CurrentValue: r.Field.CurrentValue, ProposedValue: r.Field.ProposedValue}
	}
	if r.File != nil {
		out.File = &fn.File{Path: r.File.Path, Index: r.File.Index}
	}
	return out
}
