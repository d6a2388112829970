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
		req := &fnrun.Request{}
		for _, obj := range rl.Items {
			n, err := yaml.Parse(obj.String())
			if err != nil {
				return false, err
			}
			req.Items = append(req.Items, n)
		}
		if rl.FunctionConfig != nil {
			n, err := yaml.Parse(rl.FunctionConfig.String())
			if err != nil {
				return false, err
			}
			req.Config = n
		}
		outcome := f.Process(req)
		for _, r := range outcome.Results {
			rl.Results = append(rl.Results, sdkResult(r))
		}
		if outcome.Failed {
			return false, nil
		}
		items := make(fn.KubeObjects, 0, len(req.Items))
		for _, n := range req.Items {
			s, err := n.String()
			if err != nil {
				return false, err
			}
			obj, err := fn.ParseKubeObject([]byte(s))
			if err != nil {
				return false, fmt.Errorf("%s: %w", fnrun.Describe(n), err)
			}
			items = append(items, obj)
		}
		rl.Items = items
		return true, nil
	})
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
