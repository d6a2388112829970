package podspec

import (
	"cmp"
	"fmt"
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
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
	Run:   transform,
}

// The schema types PodSpec and container patches merge with.
const (
	podSpecType   = "io.k8s.api.core.v1.PodSpec"
	containerType = "io.k8s.api.core.v1.Container"
)

// compiled is a patchesPodSpec entry ready to run.
type compiled struct {
	name       string
	set        selector.Set
	sel        *selector.SetMatcher
	podSpec    *yaml.RNode    // strategic PodSpec patch, or nil
	container  *yaml.RNode    // strategic container patch, or nil
	ops        *jsonpatch.Ops // JSON container patch, or nil
	names      *regexp.Regexp // containers containerPatch applies to; nil: all
	namesExpr  string
	rejectExpr string
	reject     *regexp.Regexp // containers containerPatch never applies to; nil: none
	// adds names the containers and init containers the PodSpec patch
	// names: in a workload this entry selects, no containerPatch of the
	// config reaches them.
	adds []string
	// typos are the fields of the patches the PodSpec or Container does
	// not have, as messages.
	typos     []string
	inits     bool
	onNoMatch string
	// fill is set for mode: default (smp.Options.Default).
	fill bool
}

func transform(req *fnrun.Request) error {
	cfg, err := decode(req.Config)
	if err != nil {
		return err
	}
	meta, err := mergemeta.Load(req, cfg.Config)
	if err != nil {
		return splitErrors(err)
	}
	entries, errs := compileAll(req, cfg)
	if len(errs) > 0 {
		return errs
	}
	r := &podRun{req: req, cfg: cfg, loc: newLocator(cfg.PodSpecPaths), ix: selector.NewIndex(req.Items, req.Config), warned: map[int]bool{}}
	r.types = podSpecTypes{meta: meta, ix: r.ix}
	// Select for every entry first: the function edits PodSpecs only, never
	// what selectors read, so this is what each entry would select in turn.
	selected := make([][]int, len(entries))
	for k, c := range entries {
		selected[k] = c.sel.Select(r.ix)
	}
	r.owned = ownedContainers(entries, selected)
	for k, c := range entries {
		r.runEntry(c, selected[k])
	}
	if len(r.errs) > 0 {
		return r.errs
	}
	return nil
}

// compileAll compiles the entries, reporting their typos (warnings, or
// errors under strict).
func compileAll(req *fnrun.Request, cfg *Config) ([]*compiled, framework.Results) {
	var errs framework.Results
	var entries []*compiled
	for i, p := range cfg.PatchesPodSpec {
		name := fmt.Sprintf("patchesPodSpec[%d]", i)
		c, err := compile(req, name, p)
		if err != nil {
			errs = append(errs, fnrun.Errorf(name, nil, "", "%v", err))
			continue
		}
		for _, typo := range c.typos {
			if cfg.Strict {
				errs = append(errs, fnrun.Errorf(name, nil, "", "%s (strict: true makes this an error)", typo))
			} else {
				req.Results = append(req.Results, fnrun.Warningf(name, nil, "", "%s", typo))
			}
		}
		entries = append(entries, c)
	}
	return entries, errs
}

// podRun is one run of the function over the items.
type podRun struct {
	req    *fnrun.Request
	cfg    *Config
	loc    *locator
	ix     *selector.Index
	types  podSpecTypes
	owned  map[int]map[string]bool // the containers other entries add, by item
	warned map[int]bool            // items warned about a missing PodSpec
	errs   framework.Results
}

// entryCounts is what one entry did, for its summary.
type entryCounts struct{ matched, containers, changed, filled int }

// runEntry applies one entry to the workloads it selected.
func (r *podRun) runEntry(c *compiled, selected []int) {
	var n entryCounts
	var elements smp.Tally
	paths := map[int]string{} // where each workload's PodSpec is
	for _, i := range selected {
		res := r.ix.Item(i)
		spec, path, missing := r.loc.find(res)
		if spec == nil {
			// no PodSpec: never touched, whatever it carries
			if missing != "" && !r.warned[i] {
				r.warned[i] = true
				r.req.Results = append(r.req.Results, fnrun.Warningf(c.name, res, missing,
					"selected, but podSpecPaths declares its PodSpec here and there is none; left alone (check the path)"))
			}
			continue
		}
		n.matched++
		t, ok := r.types.of(i, &r.errs)
		if !ok {
			continue
		}
		before := fnrun.Fingerprint(res)
		applied, err := c.apply(spec, path, r.owned[i], t)
		if err != nil {
			r.errs = append(r.errs, fnrun.Errorf(c.name, res, err.path, "%s", err.msg))
		}
		elements.Add(i, applied.elements)
		paths[i] = path
		n.containers += applied.containers
		n.filled += applied.filled
		if fnrun.Changed(before, res) {
			n.changed++
		}
	}
	r.errs = append(r.errs, reportElements(r.req, r.ix, c, &elements, paths, r.cfg.Strict)...)
	r.summarize(c, n)
}

// summarize reports what an entry did, and a selection that found nothing.
func (r *podRun) summarize(c *compiled, n entryCounts) {
	summary := fmt.Sprintf("%s changed (%d selected)", fnrun.Plural(n.changed, "workload"), n.matched)
	if c.fill {
		left := n.matched - n.changed
		verb := "they were"
		if left == 1 {
			verb = "it was"
		}
		summary += fmt.Sprintf(": defaults filled %s; %s left as %s", fnrun.Plural(n.filled, "field"), fnrun.Plural(left, "workload"), verb)
	}
	r.req.Summarize(c.name, "%s", summary)
	switch {
	case n.matched == 0:
		r.req.NoMatch(c.onNoMatch, c.name, "no workload with a PodSpec matches: "+c.sel.Explain(r.ix, "target"))
	case (c.names != nil || c.reject != nil) && n.containers == 0:
		r.req.NoMatch(c.onNoMatch, c.name, fmt.Sprintf("%s matches no container in the %d selected workloads", c.describeContainers(), n.matched))
	}
}

func compile(req *fnrun.Request, name string, p Patch) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(p.OnNoMatch); err != nil {
		return nil, err
	}
	switch p.Mode {
	case "", modeDefault:
	default:
		return nil, fmt.Errorf("mode: unknown mode %q (want default, which fills only what a PodSpec and its containers lack; or no mode)", p.Mode)
	}
	c := &compiled{name: name, inits: p.InitContainers, onNoMatch: p.OnNoMatch, fill: p.Mode == modeDefault}
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
		if c.podSpec, err = parsePodSpecPatch(text, c.fill); err != nil {
			if serr := req.SyntaxError(err, text, name, "patch", cmp.Or(p.Path, p.File)); serr != err {
				return nil, serr
			}
			return nil, fmt.Errorf("patch: %w", err)
		}
		c.typos = append(c.typos, typos("patch", c.podSpec, podSpecShape())...)
	}
	if p.ContainerPatch != "" {
		if err := c.parseContainerPatch(p.ContainerPatch); err != nil {
			if serr := req.SyntaxError(err, p.ContainerPatch, name, "containerPatch", ""); serr != err {
				return nil, serr
			}
			return nil, fmt.Errorf("containerPatch: %w", err)
		}
		c.typos = append(c.typos, typos("containerPatch", c.container, containerShape())...)
	} else if p.ContainerNames != "" || p.RejectContainerNames != "" || p.InitContainers {
		return nil, fmt.Errorf("containerNames, rejectContainerNames and initContainers choose where containerPatch applies, and there is no containerPatch")
	}
	if c.names, err = compileNames("containerNames", p.ContainerNames); err != nil {
		return nil, err
	}
	c.namesExpr = p.ContainerNames
	if c.reject, err = compileNames("rejectContainerNames", p.RejectContainerNames); err != nil {
		return nil, err
	}
	c.rejectExpr = p.RejectContainerNames
	c.adds = patchedNames(c.podSpec)
	return c, nil
}

// compileNames compiles a container-name regular expression, anchored to
// the whole name; "" gives nil.
func compileNames(field, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile("^(?:" + expr + ")$")
	if err != nil {
		hint := ""
		if strings.Contains(expr, "(?!") || strings.Contains(expr, "(?=") || strings.Contains(expr, "(?<") {
			hint = " (Go regular expressions are RE2: no lookaround; to leave containers out, use rejectContainerNames)"
		}
		return nil, fmt.Errorf("%s: invalid regular expression %q: %v%s", field, expr, err, hint)
	}
	return re, nil
}

// patchedNames lists the names of the containers and init containers a
// PodSpec patch names.
func patchedNames(patch *yaml.RNode) []string {
	if patch == nil {
		return nil
	}
	var names []string
	for _, list := range []string{"containers", "initContainers"} {
		f := patch.Field(list)
		if f == nil || f.Value.YNode().Kind != yaml.SequenceNode {
			continue
		}
		for _, cn := range f.Value.YNode().Content {
			if name, err := yaml.NewRNode(cn).GetString("name"); err == nil && name != "" {
				names = append(names, name)
			}
		}
	}
	return names
}

// ownedContainers gives, for each selected workload, the names of the
// containers a PodSpec patch of this config adds to it. They are never the
// targets of the config's containerPatch: after the first run the sidecar
// is already in the input, so "a container the patch just added" could not
// be told from an application container on the next run, and the next run
// would patch it. Naming is the one test both runs agree on.
func ownedContainers(entries []*compiled, selected [][]int) map[int]map[string]bool {
	owned := map[int]map[string]bool{}
	for k, c := range entries {
		if len(c.adds) == 0 {
			continue
		}
		for _, i := range selected[k] {
			if owned[i] == nil {
				owned[i] = map[string]bool{}
			}
			for _, name := range c.adds {
				owned[i][name] = true
			}
		}
	}
	return owned
}

// describeContainers says which containers the entry's containerPatch is
// for, for messages.
func (c *compiled) describeContainers() string {
	var parts []string
	if c.names != nil {
		parts = append(parts, fmt.Sprintf("containerNames %q", c.namesExpr))
	}
	if c.reject != nil {
		parts = append(parts, fmt.Sprintf("rejectContainerNames %q", c.rejectExpr))
	}
	return strings.Join(parts, " with ")
}

// parsePodSpecPatch reads a PodSpec patch and checks it once against the
// PodSpec schema, so no workload is half patched.
func parsePodSpecPatch(text string, fill bool) (*yaml.RNode, error) {
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
	if err := smp.ValidateWith(n, schema.Builtin().Named(podSpecType), smp.Options{Default: fill}); err != nil {
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
		if c.fill {
			return fmt.Errorf("mode: default fills what each container lacks; a JSON patch's operations say themselves what to do, so it has no default mode (write the container patch as a Container map)")
		}
		c.ops, err = jsonpatch.ParseOps(n)
		return err
	case yaml.MappingNode:
		if smp.IsDeleteDirective(n) {
			return fmt.Errorf("$patch: delete would delete every container; to remove a container, patch the PodSpec with its name and $patch: delete")
		}
		if err := smp.ValidateWith(n, schema.Builtin().Named(containerType), smp.Options{Default: c.fill}); err != nil {
			return err
		}
		c.container = n
		return nil
	}
	return fmt.Errorf("a container patch is a Container map (strategic) or a list of JSON patch operations")
}

type applyError struct{ path, msg string }

// applied is what one entry did to one PodSpec.
type applied struct {
	// containers counts how many containers the container patch reached.
	containers int
	// elements says what the PodSpec patch did with the keyed list elements
	// it names (paths relative to the PodSpec).
	elements []smp.Element
	// filled counts the values a default wrote.
	filled int
}

// apply patches one PodSpec, whose type (the PodSpec's, with the lists
// the config declares) is t: the PodSpec patch first, then the container
// patch on every chosen container but those in owned (the containers the
// config's PodSpec patches name).
func (c *compiled) apply(spec *yaml.RNode, path string, owned map[string]bool, t *schema.Type) (applied, *applyError) {
	var a applied
	if c.podSpec != nil {
		r, err := smp.MergeWith(spec, c.podSpec, t, smp.Options{Track: true, Default: c.fill})
		if err != nil {
			if se, ok := err.(*smp.Error); ok {
				return a, &applyError{joinPath(path, se.Path), se.Msg}
			}
			return a, &applyError{path, err.Error()}
		}
		a.elements, a.filled = r.Elements, r.Filled
	}
	n, filled, err := c.applyContainerPatch(spec, path, owned, t)
	a.containers, a.filled = n, a.filled+filled
	return a, err
}

// applyContainerPatch applies the container patch to the chosen containers
// of a PodSpec of type t, returning how many it reached and, for a
// default, the values it filled.
func (c *compiled) applyContainerPatch(spec *yaml.RNode, path string, owned map[string]bool, t *schema.Type) (int, int, *applyError) {
	if c.container == nil && c.ops == nil {
		return 0, 0, nil
	}
	reached, filled := 0, 0
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
			if owned[name] || (c.names != nil && !c.names.MatchString(name)) ||
				(c.reject != nil && c.reject.MatchString(name)) {
				continue
			}
			reached++
			where := fmt.Sprintf("%s.%s[name=%s]", path, list, name)
			var err error
			if c.ops != nil {
				err = c.ops.Apply(ctr)
			} else {
				// each container is filled on its own, with its type
				// (declared lists included)
				var r smp.Result
				r, err = smp.MergeWith(ctr, c.container, t.Field(list).ElementFor(cn), smp.Options{Default: c.fill})
				filled += r.Filled
			}
			if err != nil {
				if se, ok := err.(*smp.Error); ok {
					return reached, filled, &applyError{joinPath(where, se.Path), se.Msg}
				}
				return reached, filled, &applyError{where, err.Error()}
			}
		}
	}
	return reached, filled, nil
}

func joinPath(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// podSpecShape is the shape of a PodSpec, for catching misspelled fields.
func podSpecShape() schema.Shape {
	spec, _ := schema.Builtin().Shape("v1", "Pod").Field("spec")
	return spec
}

// containerShape is the shape of a Container.
func containerShape() schema.Shape {
	containers, _ := podSpecShape().Field("containers")
	return containers.Elem()
}

// typos lists, as messages, the fields of a strategic patch (nil: none) the
// shape does not have.
func typos(what string, patch *yaml.RNode, sh schema.Shape) []string {
	var out []string
	for _, u := range schema.UnknownFields(patch, sh) {
		out = append(out, what+": "+u.String())
	}
	return out
}
