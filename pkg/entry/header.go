package entry

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
)

// Header is the part of a patch function's config that is the same in
// every one; a config embeds it.
type Header struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	// Strict makes the warnings about a patch itself errors: a field the
	// patched kind does not have (replica: 3), a list element added to
	// some targets while merged in others, a container added without an
	// image, a default's element no target has, a declaration (mergeKeys,
	// schemas) that applies to nothing.
	Strict bool `json:"strict,omitempty"`
	// Schemas and MergeKeys add merge metadata: schema files, and the
	// keys of lists no schema describes.
	mergemeta.Config
	// Explain and Validate say what a run tells about its changes.
	Checks
}

// Require is the error of a config whose list of entries, field
// ("patches"), is empty (n entries): a config that does nothing is a
// mistake.
func Require(config *yaml.RNode, field string, n int) error {
	if n > 0 {
		return nil
	}
	return fmt.Errorf("%s %s: no %s", config.GetKind(), config.GetName(), field)
}
