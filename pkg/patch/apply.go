package patch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// Validate checks a strategic patch against the merge metadata of what it
// will meet, t (nil: every list is replaced), with the rules of its mode:
// smp.ValidateWith. A default merge patch is checked with t nil. What the
// check walks is charged to b (nil: a budget of the call's own).
func (d *Doc) Validate(t *schema.Type, b *budget.Budget) error {
	return smp.ValidateWith(d.Node, t, smp.Options{Default: d.Default, Budget: b})
}

// Apply patches dst, a resource, PodSpec or container, whose merge
// metadata is t (for a strategic patch; nil: every list is replaced). For
// a strategic patch the result says what became of the keyed list
// elements it names; for a default, how many values it filled. A
// document that Deletes is for the caller to act on: Apply does not
// delete. (A patch into strings is package embedpatch's to apply.) What
// the patch adds is charged to b, the run's budget (nil: a budget of the
// call's own).
func (d *Doc) Apply(dst *yaml.RNode, t *schema.Type, b *budget.Budget) (smp.Result, error) {
	switch {
	case d.Type == JSON:
		return smp.Result{}, d.Ops.Apply(dst, b)
	case d.Type == Merge && d.Default:
		// RFC 7386 knows no list merges: a default merge patch fills
		// without a schema.
		return smp.MergeWith(dst, d.Node, nil, smp.Options{Default: true, Budget: b})
	case d.Type == Merge:
		return smp.Result{}, d.merge.Apply(dst, b)
	}
	return smp.MergeWith(dst, d.Node, t, smp.Options{Track: true, Default: d.Default, Budget: b})
}
