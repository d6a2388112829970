package multipatch

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// The config types the function accepts.
const (
	kindMultiPatch       = "fn.patchwork.dev/v1alpha1/MultiPatch"
	kindPatchTransformer = "builtin/PatchTransformer"
)

// Config is the MultiPatch function config.
type Config struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Patches    []Patch        `json:"patches"`
	// Strict makes a strategic or merge patch field the patched kind does
	// not have (replica: 3) an error instead of a warning.
	Strict bool `json:"strict,omitempty"`
	// Schemas and MergeKeys add merge metadata: schema files, and the
	// keys of lists no schema describes.
	mergemeta.Config
}

// Patch is one entry of patches: a patch and the resources it applies to.
type Patch struct {
	// Patch is the patch itself, inline.
	Patch string `json:"patch,omitempty"`
	// Path names a file holding the patch, relative to the config's
	// directory. File is the KEP's name for it.
	Path string `json:"path,omitempty"`
	File string `json:"file,omitempty"`
	// Type is StrategicMergePatch, JsonPatch or MergePatch; by default a
	// list of operations is a JsonPatch and a map a StrategicMergePatch.
	// For an Embedded patch: merge, json6902 or strategic (the longer
	// names too); by default a list is json6902 and a map merge.
	Type string `json:"type,omitempty"`
	selector.Set
	Options   Options `json:"options,omitempty"`
	OnNoMatch string  `json:"onNoMatch,omitempty"`
	// Mode "default" makes a strategic or merge patch fill only what a
	// resource lacks (smp.Options.Default).
	Mode string `json:"mode,omitempty"`
	// Embedded is a field path to strings holding JSON or YAML documents:
	// the patch goes into them (package embedpatch). Format is their
	// language, json or yaml; by default as structured-replacement
	// decides.
	Embedded string `json:"embedded,omitempty"`
	Format   string `json:"format,omitempty"`
}

// modeDefault is Patch.Mode for defaults.
const modeDefault = "default"

// Options are kustomize's patch options.
type Options struct {
	AllowNameChange bool `json:"allowNameChange,omitempty"`
	AllowKindChange bool `json:"allowKindChange,omitempty"`
}

// patchTransformer is kustomize's builtin PatchTransformer config, accepted
// unchanged as a single patch.
type patchTransformer struct {
	APIVersion string             `json:"apiVersion"`
	Kind       string             `json:"kind"`
	Metadata   map[string]any     `json:"metadata,omitempty"`
	Patch      string             `json:"patch,omitempty"`
	Path       string             `json:"path,omitempty"`
	Target     *selector.Selector `json:"target,omitempty"`
	Options    map[string]bool    `json:"options,omitempty"`
}

// entry is a config entry with the name messages use for it.
type entry struct {
	name string
	Patch
	strict bool
}

// decode reads either config type into named entries, and the merge
// metadata the config adds.
func decode(config *yaml.RNode) ([]entry, mergemeta.Config, error) {
	if config.GetApiVersion()+"/"+config.GetKind() == kindPatchTransformer {
		var pt patchTransformer
		if err := fnrun.Decode(config, &pt); err != nil {
			return nil, mergemeta.Config{}, err
		}
		p := Patch{Patch: pt.Patch, Path: pt.Path, Set: selector.Set{Target: pt.Target}}
		for opt, on := range pt.Options {
			switch opt {
			case "allowNameChange":
				p.Options.AllowNameChange = on
			case "allowKindChange":
				p.Options.AllowKindChange = on
			default:
				return nil, mergemeta.Config{}, fmt.Errorf("PatchTransformer %s: unknown option %q (want allowNameChange or allowKindChange)", config.GetName(), opt)
			}
		}
		return []entry{{name: "PatchTransformer " + config.GetName(), Patch: p}}, mergemeta.Config{}, nil
	}
	var c Config
	if err := fnrun.Decode(config, &c); err != nil {
		return nil, mergemeta.Config{}, err
	}
	if len(c.Patches) == 0 {
		return nil, mergemeta.Config{}, fmt.Errorf("MultiPatch %s: no patches", config.GetName())
	}
	entries := make([]entry, len(c.Patches))
	for i, p := range c.Patches {
		entries[i] = entry{name: fmt.Sprintf("patches[%d]", i), Patch: p, strict: c.Strict}
	}
	return entries, c.Config, nil
}
