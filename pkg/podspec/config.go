package podspec

import (
	"errors"
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Config is the PodSpecPatch function config.
type Config struct {
	// Header is apiVersion, kind, metadata, strict (a patch field the
	// PodSpec or Container does not have, imagePullPolice, is then an
	// error), schemas and mergeKeys as in multi-patch; here a mergeKeys
	// path starts at the PodSpec (containers.*.x), as the patches do.
	entry.Header
	PatchesPodSpec []Patch       `json:"patchesPodSpec"`
	PodSpecPaths   []PodSpecPath `json:"podSpecPaths,omitempty"`
}

// Patch is one entry of patchesPodSpec.
type Patch struct {
	// Patch is a PodSpec, merged strategically; or Path/File name a file
	// holding it.
	Patch string `json:"patch,omitempty"`
	Path  string `json:"path,omitempty"`
	File  string `json:"file,omitempty"`
	// MatchAnnotations says the workload's metadata.annotations must carry
	// every one, with exactly that value (the KEP's selector).
	MatchAnnotations map[string]string `json:"matchAnnotations,omitempty"`
	selector.Set
	// ContainerPatch is applied to each container: a Container map
	// (strategic) or a list of JSON patch operations relative to it.
	ContainerPatch string `json:"containerPatch,omitempty"`
	// ContainerNames limits ContainerPatch to the containers whose whole
	// name matches this regular expression (RE2).
	ContainerNames string `json:"containerNames,omitempty"`
	// RejectContainerNames keeps ContainerPatch off the containers whose
	// whole name matches this regular expression: RE2 has no lookahead, so
	// "every container but istio-*" cannot be written in containerNames.
	RejectContainerNames string `json:"rejectContainerNames,omitempty"`
	// InitContainers extends ContainerPatch to the init containers.
	InitContainers bool   `json:"initContainers,omitempty"`
	OnNoMatch      string `json:"onNoMatch,omitempty"`
	// Mode "default" makes the patch and the strategic containerPatch fill
	// only what a PodSpec, and each container, lacks.
	Mode string `json:"mode,omitempty"`
	// Type is how patch and containerPatch merge: StrategicMergePatch
	// (strategic; a list containerPatch is a JSON patch), the default, or
	// ApplyPatch (apply): as server-side apply merges an applied
	// configuration.
	Type string `json:"type,omitempty"`
}

// PodSpecPath tells where the PodSpec of a custom workload lives.
type PodSpecPath struct {
	// Group of the kind; empty means the kind in any group.
	Group string `json:"group,omitempty"`
	Kind  string `json:"kind"`
	// Path is a field path, dotted (spec.runner.podSpec) or in kustomize's
	// slash syntax (spec/runner/podSpec).
	Path string `json:"path"`

	segments []string // Path split into field names
}

func decode(config *yaml.RNode) (*Config, error) {
	var c Config
	if err := fnconfig.Decode(config, &c); err != nil {
		return nil, err
	}
	if err := entry.Require(config, "patchesPodSpec", len(c.PatchesPodSpec)); err != nil {
		return nil, err
	}
	if err := c.Checks.Check(); err != nil {
		return nil, err
	}
	var errs []error
	for i := range c.PodSpecPaths {
		if err := c.PodSpecPaths[i].read(i); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &c, nil
}

// read splits the path of podSpecPaths[i] into its segments, refusing a
// path or kind left out, and a path into the resource's identity.
func (p *PodSpecPath) read(i int) error {
	if p.Kind == "" || p.Path == "" {
		return fmt.Errorf("podSpecPaths[%d]: kind and path are required", i)
	}
	var err error
	if p.segments, err = splitPath(p.Path); err != nil {
		return fmt.Errorf("podSpecPaths[%d]: %v", i, err)
	}
	switch p.segments[0] {
	case "apiVersion", "kind", "metadata":
		// A `$patch: replace` there would leave a resource without
		// its name, and kpt would fail far from here.
		return fmt.Errorf("podSpecPaths[%d]: path %q reaches into the resource's identity (apiVersion, kind, metadata), which a PodSpec patch must never replace", i, p.Path)
	}
	return nil
}

// splitPath reads a podSpecPaths path. kustomize's fieldSpecs write paths
// with slashes (spec/template/spec), the rest of patchwork with dots: a path
// holding a slash is read the kustomize way (its dots are then part of the
// field names), any other path is dotted. A leading slash, as in a JSON
// pointer, is allowed.
func splitPath(path string) ([]string, error) {
	sep := "."
	if strings.Contains(path, "/") {
		sep = "/"
		path = strings.TrimPrefix(path, "/")
	}
	segs := strings.Split(path, sep)
	for _, seg := range segs {
		if seg == "" {
			return nil, fmt.Errorf("path %q has an empty segment", path)
		}
	}
	return segs, nil
}

// selection folds matchAnnotations into the entry's selectors: every target
// must also carry the annotations.
func (p Patch) selection() (selector.Set, error) {
	if err := checkMatchAnnotations(p.MatchAnnotations); err != nil {
		return selector.Set{}, err
	}
	set := p.Set
	if len(p.MatchAnnotations) == 0 {
		return set, nil
	}
	if set.Target == nil && len(set.Targets) == 0 {
		set.Target = &selector.Selector{}
	}
	if set.Target != nil {
		t, err := withAnnotations(*set.Target, p.MatchAnnotations)
		if err != nil {
			return set, err
		}
		set.Target = &t
	}
	targets := make([]selector.Selector, len(set.Targets))
	for i, t := range set.Targets {
		var err error
		if targets[i], err = withAnnotations(t, p.MatchAnnotations); err != nil {
			return set, err
		}
	}
	set.Targets = targets
	return set, nil
}

// checkMatchAnnotations refuses an annotation given without a value.
func checkMatchAnnotations(ann map[string]string) error {
	for k, v := range ann {
		if v == "" {
			return fmt.Errorf("matchAnnotations: %q has an empty value; give the value the workloads carry", k)
		}
	}
	return nil
}

// withAnnotations is s also asking for the annotations ann; a target that
// asks for another value of one of them can match nothing.
func withAnnotations(s selector.Selector, ann map[string]string) (selector.Selector, error) {
	m := map[string]string{}
	for k, v := range s.MatchAnnotations {
		m[k] = v
	}
	for k, v := range ann {
		if old, ok := m[k]; ok && old != v {
			return s, fmt.Errorf("matchAnnotations: %q is %q here but %q in a target: no workload can match both", k, v, old)
		}
		m[k] = v
	}
	s.MatchAnnotations = m
	return s, nil
}
