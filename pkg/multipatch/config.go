package multipatch

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// kindPatchTransformer is kustomize's PatchTransformer, the config type
// multi-patch accepts besides its own (fnkinds.MultiPatch).
var kindPatchTransformer = fnkinds.MultiPatch.Kinds[1]

// Config is the MultiPatch function config.
type Config struct {
	// Header is apiVersion, kind, metadata, strict (a strategic or merge
	// patch field the patched kind does not have, replica: 3, is then an
	// error), schemas and mergeKeys.
	entry.Header
	Patches []Patch `json:"patches"`
}

// Patch is one entry of patches: a patch and the resources it applies to.
type Patch struct {
	// Patch is the patch itself, inline.
	Patch string `json:"patch,omitempty"`
	// Path names a file holding the patch, relative to the config's
	// directory. File is the KEP's name for it.
	Path string `json:"path,omitempty"`
	File string `json:"file,omitempty"`
	// Type is StrategicMergePatch, JsonPatch or MergePatch, or their short
	// names strategic, json6902 and merge (patch.ParseType). By default a
	// list of operations is a JSON patch, and a map a strategic merge
	// patch, or for an Embedded patch a merge patch.
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

// patchEntry is a config entry with the name messages use for it.
type patchEntry struct {
	name string
	Patch
}

// decode reads either config type into named entries, and what the
// config says of them all: strict, the merge metadata it adds.
func decode(config *yaml.RNode) ([]patchEntry, entry.Header, error) {
	if config.GetApiVersion()+"/"+config.GetKind() == kindPatchTransformer {
		var pt patchTransformer
		if err := fnconfig.Decode(config, &pt); err != nil {
			return nil, entry.Header{}, err
		}
		p := Patch{Patch: pt.Patch, Path: pt.Path, Set: selector.Set{Target: pt.Target}}
		for opt, on := range pt.Options {
			switch opt {
			case "allowNameChange":
				p.Options.AllowNameChange = on
			case "allowKindChange":
				p.Options.AllowKindChange = on
			default:
				return nil, entry.Header{}, fmt.Errorf("PatchTransformer %s: unknown option %q (want allowNameChange or allowKindChange)", config.GetName(), opt)
			}
		}
		return []patchEntry{{name: "PatchTransformer " + config.GetName(), Patch: p}}, entry.Header{}, nil
	}
	var c Config
	if err := fnconfig.Decode(config, &c); err != nil {
		return nil, entry.Header{}, err
	}
	if err := entry.Require(config, "patches", len(c.Patches)); err != nil {
		return nil, entry.Header{}, err
	}
	if err := c.Checks.Check(); err != nil {
		return nil, entry.Header{}, err
	}
	entries := make([]patchEntry, len(c.Patches))
	for i, p := range c.Patches {
		entries[i] = patchEntry{name: fmt.Sprintf("patches[%d]", i), Patch: p}
	}
	return entries, c.Header, nil
}
