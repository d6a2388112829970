package multipatch

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// checkTypos reports the fields of a strategic, merge or apply patch
// document that the kind of res does not have (replica: 3,
// imagePullPolice), once per document and kind: a warning, the patch being
// applied as written, or with strict: true an error. In an apply patch it
// is always an error: the API server refuses such an applied
// configuration, and so does the merge. It returns false when the
// document must not be applied.
func (a *applier) checkTypos(c *compiled, d *document, res *yaml.RNode) bool {
	if d.Type == patch.JSON || d.Deletes {
		return true // a JSON patch, or a deletion: no fields to check
	}
	refuse := a.Strict || d.Type == patch.Apply
	key := checkKey{doc: d, apiVersion: res.GetApiVersion(), kind: res.GetKind()}
	if a.typos == nil {
		a.typos = map[checkKey]bool{}
	}
	bad, seen := a.typos[key]
	if seen {
		return !(bad && refuse)
	}
	unknown := schema.UnknownFields(d.Node, a.schema().Shape(res.GetApiVersion(), res.GetKind()))
	a.typos[key] = len(unknown) > 0
	for _, u := range unknown {
		msg := fmt.Sprintf("unknown field %q for %s %s", u.Field, res.GetApiVersion(), res.GetKind())
		if u.Suggestion != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", u.Suggestion)
		}
		if d.Type == patch.Apply {
			a.Errorf(c.name, res, u.FullPath(), "%s: the API server refuses an applied configuration with a field its schema lacks", msg)
			continue
		}
		a.Flag(c.name, res, u.FullPath(), msg, "merged as written")
	}
	return !(len(unknown) > 0 && refuse)
}
