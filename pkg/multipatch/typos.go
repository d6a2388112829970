package multipatch

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// checkTypos reports the fields of a strategic or merge patch document that
// the kind of res does not have (replica: 3, imagePullPolice), once per
// document and kind: a warning, the patch being applied as written, or with
// strict: true an error. It returns false when the document must not be
// applied.
func (a *applier) checkTypos(c *compiled, d *document, res *yaml.RNode) bool {
	if d.node == nil || d.deletes {
		return true // a JSON patch, or a deletion: no fields to check
	}
	key := checkKey{doc: d, apiVersion: res.GetApiVersion(), kind: res.GetKind()}
	if a.typos == nil {
		a.typos = map[checkKey]bool{}
	}
	bad, seen := a.typos[key]
	if seen {
		return !(bad && c.strict)
	}
	unknown := schema.UnknownFields(d.node, a.schema().Shape(res.GetApiVersion(), res.GetKind()))
	a.typos[key] = len(unknown) > 0
	for _, u := range unknown {
		msg := fmt.Sprintf("unknown field %q for %s %s", u.Field, res.GetApiVersion(), res.GetKind())
		if u.Suggestion != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", u.Suggestion)
		}
		if c.strict {
			a.errs = append(a.errs, fnrun.Errorf(c.name, res, u.FullPath(), "%s (strict: true makes this an error)", msg))
		} else {
			a.req.Results = append(a.req.Results, fnrun.Warningf(c.name, res, u.FullPath(), "%s; merged as written", msg))
		}
	}
	return !(len(unknown) > 0 && c.strict)
}
