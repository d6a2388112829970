package podspec

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// reportElements says what the PodSpec patch of entry c did that a user
// rarely means: it added a container without an image (the API server
// rejects it; containerPatch is the way to edit the containers that
// exist), or added a list element to some workloads while it merged into
// the existing one in others. Warnings, added to req; with strict, errors,
// returned. paths gives each workload's PodSpec path.
func reportElements(req *fnrun.Request, ix *selector.Index, c *compiled, t *smp.Tally, paths map[int]string, strict bool) framework.Results {
	var errs framework.Results
	flag := func(r *framework.Result) {
		if strict {
			r.Severity = framework.Error
			r.Message += " (strict: true makes this an error)"
			errs = append(errs, r)
			return
		}
		req.Results = append(req.Results, r)
	}
	for _, f := range t.Findings() {
		for _, i := range f.NoImage {
			msg := "the PodSpec patch adds this container, which the workload did not have, without an image: the API server will reject it"
			if n := len(f.Merged); n > 0 {
				msg += fmt.Sprintf(" (in %s the patch merged into the container of that name)", fnrun.Plural(n, "other workload"))
			}
			if f.Name != "" {
				msg += fmt.Sprintf("; to edit %q only where it exists, use containerPatch with containerNames: %s", f.Name, f.Name)
			}
			flag(fnrun.Warningf(c.name, ix.Item(i), joinPath(paths[i], f.Path), "%s", msg))
		}
		if f.Mixed() && len(f.NoImage) == 0 {
			flag(fnrun.Warningf(c.name, nil, "", "the PodSpec's %s: added as a new list element to %s (%s) while merged into the existing one in %d; a strategic merge adds an element wherever none has its keys: if the patch is meant for the workloads that have it, narrow the target",
				f.Path, fnrun.Plural(len(f.Created), "workload"), describe(ix, f.Created), len(f.Merged)))
		}
	}
	return errs
}

// describe names up to five workloads, for messages.
func describe(ix *selector.Index, items []int) string {
	const most = 5
	var names []string
	for k, i := range items {
		if k == most {
			names = append(names, fmt.Sprintf("and %d more", len(items)-most))
			break
		}
		names = append(names, fnrun.Describe(ix.Item(i)))
	}
	return strings.Join(names, ", ")
}
