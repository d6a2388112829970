package podspec

import (
	"errors"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// podSpecTypes gives each workload's PodSpec its type: the Kubernetes
// PodSpec's (a Pod's spec), with the lists the config's mergeKeys declare
// for the workload, their paths starting at the PodSpec.
type podSpecTypes struct {
	meta *mergemeta.Meta
	ix   *selector.Index
}

var podSpecAt = fieldpath.MustParse("spec")

// of returns the type of item i's PodSpec; false when a declaration
// cannot apply, which is reported (once per declaration and kind) in errs.
func (p podSpecTypes) of(i int, errs *framework.Results) (*schema.Type, bool) {
	if !p.meta.Adds() {
		// The PodSpec's own rules: CRDs among the resources have no say.
		return schema.Builtin().Named(podSpecType), true
	}
	t, _, err := p.meta.TypeAs(p.ix, i, "v1", "Pod", podSpecAt, "a PodSpec")
	if err != nil {
		var de *mergemeta.DeclError
		switch {
		case errors.As(err, &de) && de.First:
			*errs = append(*errs, fnrun.Errorf(de.Entry, p.ix.Item(i), de.Field, "%s", de.Msg))
		case !errors.As(err, &de):
			*errs = append(*errs, fnrun.Errorf("", nil, "", "%v", err))
		}
		return nil, false
	}
	return t, true
}
