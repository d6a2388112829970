package patch

import (
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// Types is what a document merges with, as its type needs it.
type Types struct {
	// Strategic is a strategic patch's merge metadata (nil: every list
	// is replaced).
	Strategic *schema.Type
	// Apply is an apply patch's type (the zero Type: deduced from the
	// values, maps merged and lists replaced).
	Apply apply.Type
}

// Validate checks a patch against the type information of what it will
// meet: a strategic patch against t.Strategic, with the rules of its mode
// (smp.ValidateWith; a default merge patch is checked so without a
// schema), an apply patch against t.Apply as the API server types an
// applied configuration (apply.Patch.Check). What the check walks is
// charged to b (nil: a budget of the call's own).
func (d *Doc) Validate(t Types, b *budget.Budget) error {
	if d.Type == Apply {
		return d.config.Check(t.Apply)
	}
	return smp.ValidateWith(d.Node, t.Strategic, smp.Options{Default: d.Default, Budget: b})
}

// Apply patches dst, a resource, PodSpec or container, whose type
// information is t. For a strategic patch the result says what became of
// the keyed list elements it names; for a default, how many values it
// filled. A document that Deletes is for the caller to act on: Apply does
// not delete. (A patch into strings is package embedpatch's to apply.)
// What the patch adds is charged to b, the run's budget (nil: a budget of
// the call's own).
func (d *Doc) Apply(dst *yaml.RNode, t Types, b *budget.Budget) (smp.Result, error) {
	switch {
	case d.Type == JSON:
		return smp.Result{}, d.Ops.Apply(dst, b)
	case d.Type == Apply:
		return smp.Result{}, d.config.Merge(dst, t.Apply, b)
	case d.Type == Merge && d.Default:
		// RFC 7386 knows no list merges: a default merge patch fills
		// without a schema.
		return smp.MergeWith(dst, d.Node, nil, smp.Options{Default: true, Budget: b})
	case d.Type == Merge:
		return smp.Result{}, d.merge.Apply(dst, b)
	}
	return smp.MergeWith(dst, d.Node, t.Strategic, smp.Options{Track: true, Default: d.Default, Budget: b})
}
