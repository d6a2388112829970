package fnrun

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Explain records an info result saying what an entry changed in a
// resource, at one field (a config's explain: true). Like the summaries,
// they join the results only when the run succeeds (a failed run changed
// nothing), after the other results; unlike them, they are printed under
// kustomize too: the user asked for them.
func (r *Request) Explain(entry string, res *yaml.RNode, field, format string, args ...any) {
	r.explained = append(r.explained, result(framework.Info, entry, res, field, fmt.Sprintf(format, args...)))
}
