package podspec

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the podspec-patch function.
var Function = fnrun.Function{
	Name:    fnkinds.PodSpecPatch.Name,
	Short:   "apply one PodSpec patch (sidecars, service accounts, per-container edits) to every matching workload",
	Kinds:   fnkinds.PodSpecPatch.Kinds,
	TakenBy: fnkinds.TakenBy(),
	Run:     transform,
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
	podSpec    *patch.Doc     // the PodSpec patch (strategic or apply), or nil
	container  *patch.Doc     // the container patch (strategic, JSON or apply), or nil
	typ        patch.Type     // the entry's type: 0 (each patch's shape decides) or the one given
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
	meta, err := mergemeta.Load(req.Files(), &req.Results, cfg.Config)
	if err != nil {
		return entry.Split(err)
	}
	r := &podRun{Run: entry.Run{Req: req, Ix: selector.NewIndex(req.Items, req.Config), Strict: cfg.Strict, Noun: "workload"},
		loc: newLocator(cfg.PodSpecPaths), warned: map[int]bool{}}
	r.watch = &entry.Watch{Req: req, Checks: cfg.Checks, Errs: &r.Errs, Schema: func() *schema.Schema {
		s, err := meta.Schema(r.Ix.Items())
		if err != nil {
			return schema.Builtin() // reported where the types are read
		}
		return s
	}}
	entries := r.compileAll(cfg)
	if len(r.Errs) > 0 {
		return r.Errs
	}
	r.types = podSpecTypes{meta: meta, ix: r.Ix}
	// Select for every entry first: the function edits PodSpecs only, never
	// what selectors read, so this is what each entry would select in turn.
	selected := make([][]int, len(entries))
	for k, c := range entries {
		selected[k] = c.sel.Select(r.Ix)
	}
	r.owned = ownedContainers(entries, selected)
	for k, c := range entries {
		if r.Spent() {
			break
		}
		r.runEntry(c, selected[k])
	}
	r.unapplied(meta)
	r.watch.Finish()
	return r.Err()
}

// unapplied flags the declarations (mergeKeys, schemas) that applied to
// nothing: a path that leads to no list of any PodSpec, and every schema
// file, since a PodSpec's rules are the Kubernetes schema's.
func (r *podRun) unapplied(meta *mergemeta.Meta) {
	scope := mergemeta.Scope{Root: "the PodSpec", Noun: "workload",
		NoSchemas: "a PodSpec merges by the Kubernetes PodSpec schema, which no schema file changes, so the entry applies to nothing here (multi-patch reads schema files for custom resources)",
		Roots: func(i int) []*yaml.Node {
			if spec, _, _ := r.loc.find(r.Ix.Item(i)); spec != nil {
				return []*yaml.Node{spec.YNode()}
			}
			return nil
		},
		At: func(i int) string {
			_, path, _ := r.loc.find(r.Ix.Item(i))
			return path
		}}
	for _, f := range meta.Unapplied(r.Ix, scope) {
		r.Flag(f.Entry, f.Res, f.Field, f.Msg, "")
	}
}

// compileAll compiles the entries, reporting their typos (findings:
// warnings, or errors under strict).
func (r *podRun) compileAll(cfg *Config) []*compiled {
	var entries []*compiled
	for i, p := range cfg.PatchesPodSpec {
		name := fmt.Sprintf("patchesPodSpec[%d]", i)
		c, err := compile(r.Req, name, p)
		if err != nil {
			r.Errorf(name, nil, "", "%v", err)
			continue
		}
		for _, typo := range c.typos {
			r.Flag(name, nil, "", typo, "")
		}
		entries = append(entries, c)
	}
	return entries
}

// podRun is one run of the function over the items.
type podRun struct {
	entry.Run
	loc    *locator
	types  podSpecTypes
	owned  map[int]map[string]bool // the containers other entries add, by item
	warned map[int]bool            // items warned about a missing PodSpec
	watch  *entry.Watch            // explain:, validate:
}

// entryCounts is what one entry did, for its summary.
type entryCounts struct {
	entry.Counts
	containers int // the containers its containerPatch reached
}

// runEntry applies one entry to the workloads it selected.
func (r *podRun) runEntry(c *compiled, selected []int) {
	var n entryCounts
	var elements smp.Tally
	paths := map[int]string{} // where each workload's PodSpec is
	for _, i := range selected {
		if r.Spent() {
			break
		}
		spec, path := r.podSpec(c, i)
		if spec == nil {
			continue // no PodSpec: never touched, whatever it carries
		}
		n.Selected++
		t, ok := r.types.of(i, &r.Errs)
		if !ok {
			continue
		}
		elements.Add(i, r.patchWorkload(c, i, spec, path, t, &n))
		paths[i] = path
	}
	r.Elements(c.name, &elements, entry.Words{Patch: "the PodSpec patch", Within: "the PodSpec",
		At: func(i int) string { return paths[i] }, Hint: useContainerPatch, Every: "containerPatch"})
	r.summarize(c, n)
}

// podSpec is the PodSpec of item i and its path; nil when it has none,
// with a warning (once per item) when podSpecPaths declares one there.
func (r *podRun) podSpec(c *compiled, i int) (*yaml.RNode, string) {
	res := r.Ix.Item(i)
	spec, path, missing := r.loc.find(res)
	if spec == nil && missing != "" && !r.warned[i] {
		r.warned[i] = true
		r.Warnf(c.name, res, missing, "selected, but podSpecPaths declares its PodSpec here and there is none; left alone (check the path)")
	}
	return spec, path
}

// patchWorkload applies c to item i's PodSpec, spec at path, of type t,
// and counts in n what it did; it returns what the PodSpec patch did with
// the keyed list elements it names.
func (r *podRun) patchWorkload(c *compiled, i int, spec *yaml.RNode, path string, t *schema.Type, n *entryCounts) []smp.Element {
	res := r.Ix.Item(i)
	step := r.watch.Before(c.name, res)
	if c.container == nil || c.container.Type == patch.Strategic {
		step.FieldsChecked() // compile reported the patches' unknown fields
	}
	before := step.Mark(res)
	applied, err := c.apply(spec, path, r.owned[i], t, r.Req.Budget())
	if err != nil {
		r.Errorf(c.name, res, err.path, "%s", err.msg)
	}
	n.containers += applied.containers
	n.Filled += applied.filled
	if before.Changed(res) {
		n.Changed++
		step.Done()
	}
	return applied.elements
}

// useContainerPatch is the way to edit a container only where it exists.
func useContainerPatch(name string) string {
	return fmt.Sprintf("; to edit %q only where it exists, use containerPatch with containerNames: %s", name, name)
}

// summarize reports what an entry did, and a selection that found nothing.
func (r *podRun) summarize(c *compiled, n entryCounts) {
	r.Summarize(c.name, n.Counts, c.fill)
	switch {
	case n.Selected == 0:
		r.Req.NoMatch(c.onNoMatch, c.name, "no workload with a PodSpec matches: "+c.sel.Explain(r.Ix, "target"))
	case (c.names != nil || c.reject != nil) && n.containers == 0:
		r.Req.NoMatch(c.onNoMatch, c.name, fmt.Sprintf("%s matches no container in the %d selected workloads", c.describeContainers(), n.Selected))
	}
}

func compile(req *fnrun.Request, name string, p Patch) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(p.OnNoMatch); err != nil {
		return nil, err
	}
	fill, err := patch.ParseMode(p.Mode, patch.PodSpec, patch.Container)
	if err != nil {
		return nil, err
	}
	c := &compiled{name: name, inits: p.InitContainers, onNoMatch: p.OnNoMatch, fill: fill}
	if c.typ, err = patch.ParseType(p.Type); err != nil {
		return nil, err
	}
	if c.set, err = p.selection(); err != nil {
		return nil, err
	}
	if c.sel, err = selector.CompileSet(c.set); err != nil {
		return nil, err
	}
	if err := c.compilePatches(req, p); err != nil {
		return nil, err
	}
	if err := c.compileContainerNames(p); err != nil {
		return nil, err
	}
	c.adds = patchedNames(c.podSpec)
	return c, nil
}

// compileContainerNames compiles containerNames and rejectContainerNames.
func (c *compiled) compileContainerNames(p Patch) error {
	var err error
	if c.names, err = compileNames("containerNames", p.ContainerNames); err != nil {
		return err
	}
	c.namesExpr = p.ContainerNames
	if c.reject, err = compileNames("rejectContainerNames", p.RejectContainerNames); err != nil {
		return err
	}
	c.rejectExpr = p.RejectContainerNames
	return nil
}

// compilePatches reads the entry's PodSpec patch and container patch, and
// checks them once against the PodSpec and Container schemas, so that no
// workload is half patched.
func (c *compiled) compilePatches(req *fnrun.Request, p Patch) error {
	text, err := req.Files().InlineOrFile(p.Patch, p.Path, p.File)
	if err != nil {
		return err
	}
	if text == "" && p.ContainerPatch == "" {
		return fmt.Errorf("nothing to do: give patch (a PodSpec), path, or containerPatch")
	}
	if text != "" {
		if err := c.compilePodSpecPatch(req, p, text); err != nil {
			return err
		}
	}
	return c.compileContainerPatch(req, p)
}

// compilePodSpecPatch reads the PodSpec patch, text (from the entry's
// patch, or the file it names).
func (c *compiled) compilePodSpecPatch(req *fnrun.Request, p Patch, text string) error {
	o := patch.Options{Into: patch.PodSpec, Type: c.typ, Default: c.fill}
	var err error
	if c.podSpec, err = parseOne(req, c.name, "patch", cmp.Or(p.Path, p.File), text, o, checkPodSpec); err != nil {
		return err
	}
	if c.podSpec.Type != patch.Apply { // an apply patch's are errors (checkPodSpec)
		c.typos = append(c.typos, typos("patch", c.podSpec.Node, podSpecShape())...)
	}
	return nil
}

// compileContainerPatch reads containerPatch, and refuses the fields that
// choose containers for it when there is none.
func (c *compiled) compileContainerPatch(req *fnrun.Request, p Patch) error {
	if p.ContainerPatch == "" {
		if p.ContainerNames != "" || p.RejectContainerNames != "" || p.InitContainers {
			return fmt.Errorf("containerNames, rejectContainerNames and initContainers choose where containerPatch applies, and there is no containerPatch")
		}
		return nil
	}
	o := patch.Options{Into: patch.Container, Type: c.typ, Default: c.fill}
	var err error
	if c.container, err = parseOne(req, c.name, "containerPatch", "", p.ContainerPatch, o, checkContainer); err != nil {
		return err
	}
	if c.container.Type == patch.Strategic {
		c.typos = append(c.typos, typos("containerPatch", c.container.Node, containerShape())...)
	}
	return nil
}

// parseOne reads the patch of an entry's field (its file named in file),
// checked by check. Errors name the field; a YAML syntax error is told by
// its line.
func parseOne(req *fnrun.Request, name, field, file, text string, o patch.Options, check func(*patch.Doc) error) (*patch.Doc, error) {
	o.Check = check
	docs, err := patch.Parse(text, o)
	if err != nil {
		if serr := fnconfig.SyntaxError(req.Config, err, text, name, field, file); serr != err {
			return nil, serr
		}
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return docs[0], nil
}

// compileNames compiles a container-name regular expression, anchored to
// the whole name; "" gives nil.
func compileNames(field, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := budget.Regexp("^(?:" + expr + ")$")
	var pe *budget.ProgramError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %v", field, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: invalid regular expression %q: %s", field, expr,
			suggest.Regexp(expr, "to leave containers out, use rejectContainerNames"))
	}
	return re, nil
}

// patchedNames lists the names of the containers and init containers a
// PodSpec patch names.
func patchedNames(d *patch.Doc) []string {
	if d == nil {
		return nil
	}
	var names []string
	for _, list := range []string{"containers", "initContainers"} {
		elements, _ := listField(d.Node, list)
		for _, cn := range elements {
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

// checkPodSpec checks a PodSpec patch: the PodSpec itself, valid for the
// PodSpec schema.
func checkPodSpec(d *patch.Doc) error {
	for _, f := range []string{"apiVersion", "kind", "metadata", "spec", "template"} {
		if d.Node.Field(f) != nil {
			return fmt.Errorf("has %q: a PodSpec patch is the PodSpec itself (containers, volumes, serviceAccountName...), not a resource or template; use multi-patch for whole resources", f)
		}
	}
	if err := refuseUnknown(d, podSpecShape()); err != nil {
		return err
	}
	return d.Validate(patch.Types{Strategic: schema.Builtin().Named(podSpecType), Apply: podSpecApply()}, nil)
}

// checkContainer checks a strategic or apply container patch against the
// Container schema.
func checkContainer(d *patch.Doc) error {
	if d.Type == patch.JSON {
		return nil
	}
	if err := refuseUnknown(d, containerShape()); err != nil {
		return err
	}
	return d.Validate(patch.Types{Strategic: schema.Builtin().Named(containerType), Apply: containerApply()}, nil)
}

// refuseUnknown refuses an apply patch with a field the shape lacks, as
// the API server refuses such an applied configuration (a strategic
// patch's are findings: typos).
func refuseUnknown(d *patch.Doc, sh schema.Shape) error {
	if d.Type != patch.Apply {
		return nil
	}
	if u := schema.UnknownFields(d.Node, sh); len(u) > 0 {
		return fmt.Errorf("%s: the API server refuses an applied configuration with a field its schema lacks", u[0])
	}
	return nil
}

// podSpecApply and containerApply are the types an apply patch merges
// with: the built-in PodSpec's and Container's, whatever the workload.
func podSpecApply() apply.Type   { return apply.Builtin().Named(podSpecType, "PodSpec") }
func containerApply() apply.Type { return apply.Builtin().Named(containerType, "container") }

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
func (c *compiled) apply(spec *yaml.RNode, path string, owned map[string]bool, t *schema.Type, b *budget.Budget) (applied, *applyError) {
	var a applied
	if c.podSpec != nil {
		r, err := c.podSpec.Apply(spec, patch.Types{Strategic: t, Apply: podSpecApply()}, b)
		if err != nil {
			return a, newApplyError(path, err)
		}
		a.elements, a.filled = r.Elements, r.Filled
	}
	if c.container == nil {
		return a, nil
	}
	err := c.applyContainers(spec, path, owned, t, b, &a)
	return a, err
}

// applyContainers applies the container patch to the containers chosen in
// the PodSpec spec at path, of type t, and counts in a what it did; b is
// the run's budget.
func (c *compiled) applyContainers(spec *yaml.RNode, path string, owned map[string]bool, t *schema.Type, b *budget.Budget, a *applied) *applyError {
	for _, ctr := range c.chosen(spec, owned) {
		a.containers++
		et := t // a JSON patch has no use for it
		if c.container.Type == patch.Strategic {
			// each container is filled on its own, with its type
			// (declared lists included)
			et = t.Field(ctr.list).ElementFor(ctr.node.YNode())
		}
		r, err := c.container.Apply(ctr.node, patch.Types{Strategic: et, Apply: containerApply()}, b)
		a.filled += r.Filled
		if err != nil {
			return newApplyError(fmt.Sprintf("%s.%s[name=%s]", path, ctr.list, ctr.name), err)
		}
	}
	return nil
}

// container is a container of a PodSpec: its list, its name, itself.
type container struct {
	list, name string
	node       *yaml.RNode
}

// chosen lists the containers of a PodSpec the container patch applies
// to: those containerNames and rejectContainerNames choose (and the init
// containers with initContainers), but those in owned.
func (c *compiled) chosen(spec *yaml.RNode, owned map[string]bool) []container {
	lists := []string{"containers"}
	if c.inits {
		lists = append(lists, "initContainers")
	}
	var out []container
	for _, list := range lists {
		elements, _ := listField(spec, list)
		for _, cn := range elements {
			ctr := yaml.NewRNode(cn)
			if name, _ := ctr.GetString("name"); c.reaches(name, owned) {
				out = append(out, container{list, name, ctr})
			}
		}
	}
	return out
}

// reaches reports whether the container patch applies to a container named
// name: one containerNames and rejectContainerNames choose, not in owned.
func (c *compiled) reaches(name string, owned map[string]bool) bool {
	return !owned[name] && (c.names == nil || c.names.MatchString(name)) && (c.reject == nil || !c.reject.MatchString(name))
}

// newApplyError is err where it happened: at where, and for a strategic
// merge error at the path below it the error names.
func newApplyError(where string, err error) *applyError {
	if se, ok := err.(*smp.Error); ok {
		return &applyError{joinPath(where, se.Path), se.Msg}
	}
	return &applyError{where, err.Error()}
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
