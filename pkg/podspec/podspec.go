// Package podspec applies one PodSpec patch to every matching workload, as
// the KEP "Kustomize PodSpec Patch" proposed: inject a sidecar, set a
// service account, or edit every container whatever its name.
package podspec

import (
	"fmt"
	"regexp"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the podspec-patch function.
var Function = fnrun.Function{
	Name:  "podspec-patch",
	Short: "apply one PodSpec patch (sidecars, service accounts, per-container edits) to every matching workload",
	Kinds: []string{kindPodSpecPatch},
	Run:   run,
}

// The schema types PodSpec and container patches merge with.
const (
	podSpecType   = "io.k8s.api.core.v1.PodSpec"
	containerType = "io.k8s.api.core.v1.Container"
)

// compiled is a patchesPodSpec entry ready to run.
type compiled struct {
	name      string
	set       selector.Set
	sel       *selector.SetMatcher
	podSpec   *yaml.RNode    // strategic PodSpec patch, or nil
	container *yaml.RNode    // strategic container patch, or nil
	ops       *jsonpatch.Ops // JSON container patch, or nil
	names     *regexp.Regexp // containers containerPatch applies to; nil: all
	namesExpr string
	inits     bool
	onNoMatch string
}

func run(req *fnrun.Request) error {
	cfg, err := decode(req.Config)
	if err != nil {
		return err
	}
	var errs framework.Results
	var entries []*compiled
	for i, p := range cfg.PatchesPodSpec {
		name := fmt.Sprintf("patchesPodSpec[%d]", i)
		c, err := compile(req, name, p)
		if err != nil {
			errs = append(errs, fnrun.Errorf(name, nil, "", "%v", err))
			continue
		}
		entries = append(entries, c)
	}
	if len(errs) > 0 {
		return errs
	}
	loc := newLocator(cfg.PodSpecPaths)
	ix := selector.NewIndex(req.Items, req.Config)
	for _, c := range entries {
		matched, containers := 0, 0
		for _, i := range c.sel.Select(ix) {
			res := ix.Item(i)
			spec, path := loc.find(res)
			if spec == nil {
				continue // no PodSpec: never touched, whatever it carries
			}
			matched++
			n, err := c.apply(spec, path)
			if err != nil {
				errs = append(errs, fnrun.Errorf(c.name, res, err.path, "%s", err.msg))
			}
			containers += n
		}
		switch {
		case matched == 0:
			req.NoMatch(c.onNoMatch, c.name, "no workload with a PodSpec matches: "+c.set.NoMatch())
		case c.names != nil && containers == 0:
			req.NoMatch(c.onNoMatch, c.name, fmt.Sprintf("containerNames %q matches no container in the %d selected workloads", c.namesExpr, matched))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func compile(req *fnrun.Request, name string, p Patch) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(p.OnNoMatch); err != nil {
		return nil, err
	}
	c := &compiled{name: name, inits: p.InitContainers, onNoMatch: p.OnNoMatch}
	var err error
	if c.set, err = p.selection(); err != nil {
		return nil, err
	}
	if c.sel, err = selector.CompileSet(c.set); err != nil {
		return nil, err
	}
	text, err := req.InlineOrFile(p.Patch, p.Path, p.File)
	if err != nil {
		return nil, err
	}
	if text == "" && p.ContainerPatch == "" {
		return nil, fmt.Errorf("nothing to do: give patch (a PodSpec), path, or containerPatch")
	}
	if text != "" {
		if c.podSpec, err = parsePodSpecPatch(text); err != nil {
			return nil, fmt.Errorf("patch: %w", err)
		}
	}
	if p.ContainerPatch != "" {
		if err := c.parseContainerPatch(p.ContainerPatch); err != nil {
			return nil, fmt.Errorf("containerPatch: %w", err)
		}
	} else if p.ContainerNames != "" || p.InitContainers {
		return nil, fmt.Errorf("containerNames and initContainers choose where containerPatch applies, and there is no containerPatch")
	}
	if p.ContainerNames != "" {
		c.namesExpr = p.ContainerNames
		if c.names, err = regexp.Compile("^(?:" + p.ContainerNames + ")$"); err != nil {
			return nil, fmt.Errorf("containerNames: invalid regular expression %q: %v", p.ContainerNames, err)
		}
	}
	return c, nil
}

// parsePodSpecPatch reads a PodSpec patch and checks it once against the
// PodSpec schema, so no workload is half patched.
func parsePodSpecPatch(text string) (*yaml.RNode, error) {
	n, err := yaml.Parse(text)
	if err != nil {
		return nil, err
	}
	if n.YNode().Kind != yaml.MappingNode {
		return nil, fmt.Errorf("a PodSpec patch is a map (containers, volumes, serviceAccountName...)")
	}
	for _, f := range []string{"apiVersion", "kind", "metadata", "spec", "template"} {
		if n.Field(f) != nil {
			return nil, fmt.Errorf("has %q: a PodSpec patch is the PodSpec itself (containers, volumes, serviceAccountName...), not a resource or template; use multi-patch for whole resources", f)
		}
	}
	if smp.IsDeleteDirective(n) {
		return nil, fmt.Errorf("$patch: delete would delete the PodSpec itself")
	}
	if err := smp.Validate(n, schema.Builtin().Named(podSpecType)); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *compiled) parseContainerPatch(text string) error {
	n, err := yaml.Parse(text)
	if err != nil {
		return err
	}
	switch n.YNode().Kind {
	case yaml.SequenceNode:
		c.ops, err = jsonpatch.ParseOps(n)
		return err
	case yaml.MappingNode:
		if smp.IsDeleteDirective(n) {
			return fmt.Errorf("$patch: delete would delete every container; to remove a container, patch the PodSpec with its name and $patch: delete")
		}
		if err := smp.Validate(n, schema.Builtin().Named(containerType)); err != nil {
			return err
		}
		c.container = n
		return nil
	}
	return fmt.Errorf("a container patch is a Container map (strategic) or a list of JSON patch operations")
}

type applyError struct{ path, msg string }

// apply patches one PodSpec: the PodSpec patch first, then the container
// patch on every chosen container — sidecars the first one added included.
// It returns how many containers the container patch reached.
func (c *compiled) apply(spec *yaml.RNode, path string) (int, *applyError) {
	if c.podSpec != nil {
		if err := smp.Merge(spec, c.podSpec, schema.Builtin().Named(podSpecType)); err != nil {
			if se, ok := err.(*smp.Error); ok {
				return 0, &applyError{joinPath(path, se.Path), se.Msg}
			}
			return 0, &applyError{path, err.Error()}
		}
	}
	if c.container == nil && c.ops == nil {
		return 0, nil
	}
	reached := 0
	lists := []string{"containers"}
	if c.inits {
		lists = append(lists, "initContainers")
	}
	for _, list := range lists {
		f := spec.Field(list)
		if f == nil || f.Value.YNode().Kind != yaml.SequenceNode {
			continue
		}
		for _, cn := range f.Value.YNode().Content {
			ctr := yaml.NewRNode(cn)
			name, _ := ctr.GetString("name")
			if c.names != nil && !c.names.MatchString(name) {
				continue
			}
			reached++
			where := fmt.Sprintf("%s.%s[name=%s]", path, list, name)
			var err error
			if c.ops != nil {
				err = c.ops.Apply(ctr)
			} else {
				err = smp.Merge(ctr, c.container, schema.Builtin().Named(containerType))
			}
			if err != nil {
				if se, ok := err.(*smp.Error); ok {
					return reached, &applyError{joinPath(where, se.Path), se.Msg}
				}
				return reached, &applyError{where, err.Error()}
			}
		}
	}
	return reached, nil
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}
