package multipatch

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// reportElements says what kustomize keeps quiet about: a strategic patch
// that added a keyed list element (a container, a port, an env entry) to
// some of the resources it selected while it merged into the existing one
// in others, and, loudest, a container it added without an image, which
// the API server rejects. A warning each; with strict: true, an error.
func (a *applier) reportElements(c *compiled, t *smp.Tally) {
	for _, f := range t.Findings() {
		for _, i := range f.NoImage {
			msg := "the patch adds this container, which the resource did not have, without an image: the API server will reject it"
			if n := len(f.Merged); n > 0 {
				msg += fmt.Sprintf(" (in %s the patch merged into the container of that name; to change only those, narrow the target)",
					fnrun.Plural(n, "other resource"))
			}
			a.flag(c, a.ix.Item(i), f.Path, msg)
		}
		if f.Mixed() && len(f.NoImage) == 0 {
			a.flag(c, nil, f.Path, fmt.Sprintf("added as a new list element to %s (%s) while merged into the existing one in %d; a strategic merge adds an element wherever none has its keys: if the patch is meant for the resources that have it, narrow the target",
				fnrun.Plural(len(f.Created), "resource"), a.describe(f.Created), len(f.Merged)))
		}
	}
}

// flag records a finding of reportElements: a warning, or with strict an
// error.
func (a *applier) flag(c *compiled, res *yaml.RNode, field, msg string) {
	if c.strict {
		a.errs = append(a.errs, fnrun.Errorf(c.name, res, field, "%s (strict: true makes this an error)", msg))
		return
	}
	a.req.Results = append(a.req.Results, fnrun.Warningf(c.name, res, field, "%s", msg))
}

// describe names up to five resources, for messages.
func (a *applier) describe(items []int) string {
	const most = 5
	var names []string
	for k, i := range items {
		if k == most {
			names = append(names, fmt.Sprintf("and %d more", len(items)-most))
			break
		}
		names = append(names, fnrun.Describe(a.ix.Item(i)))
	}
	return strings.Join(names, ", ")
}
