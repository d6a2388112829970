package multipatch

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/apply"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/fnkinds"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the multi-patch function.
var Function = fnrun.Function{
	Name:    fnkinds.MultiPatch.Name,
	Short:   "apply strategic merge, JSON, merge and apply patches to every resource a selector matches",
	Kinds:   fnkinds.MultiPatch.Kinds,
	TakenBy: fnkinds.TakenBy(),
	Run:     transform,
}

// maxErrors bounds the error results of one run: past that, more of the
// same helps nobody.
const maxErrors = 50

// compiled is a config entry ready to run.
type compiled struct {
	patchEntry
	docs []*document
	sel  *selector.SetMatcher // nil: each document selects its own resource
	// fill is set for mode: default (smp.Options.Default).
	fill bool
	// into is set for a patch into strings (embedded.go).
	into *intoStrings
}

func transform(req *fnrun.Request) error {
	entries, h, err := decode(req.Config)
	if err != nil {
		return err
	}
	// every error of the config at once: its declarations' and its patches'
	meta, metaErr := mergemeta.Load(req.Files(), &req.Results, h.Config)
	patches, errs := compileAll(req, entries)
	if metaErr != nil {
		errs = append(entry.Results(metaErr), errs...)
	}
	if len(errs) > 0 {
		return errs
	}
	a := &applier{Run: entry.Run{Req: req, Ix: selector.NewIndex(req.Items, req.Config), Strict: h.Strict, Noun: "resource"}, meta: meta}
	a.watch = &entry.Watch{Req: req, Checks: h.Checks, Schema: a.schema, Errs: &a.Errs}
	for _, c := range patches {
		a.run(c)
		if len(a.Errs) >= maxErrors || a.Spent() {
			break
		}
	}
	a.unapplied()
	a.watch.Finish()
	if err := a.Err(); err != nil {
		return err
	}
	req.Items = a.Ix.Items()
	return nil
}

// compileAll compiles the entries; an empty patch file is skipped, with
// an info result.
func compileAll(req *fnrun.Request, entries []patchEntry) ([]*compiled, framework.Results) {
	var errs framework.Results
	var patches []*compiled
	for _, e := range entries {
		c, err := compile(req, e)
		var empty emptyFile
		if errors.As(err, &empty) {
			req.Results = append(req.Results, &framework.Result{Severity: framework.Info,
				Message: fmt.Sprintf("%s: patch file %q is empty (or holds only comments); skipped, as kustomize skips it", e.name, string(empty))})
			continue
		}
		if err != nil {
			errs = append(errs, fnrun.Errorf(e.name, nil, "", "%v", err))
			continue
		}
		patches = append(patches, c)
	}
	return patches, errs
}

func compile(req *fnrun.Request, e patchEntry) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(e.OnNoMatch); err != nil {
		return nil, err
	}
	into := patch.Resource
	if e.Embedded != "" {
		into = patch.String
	}
	fill, err := patch.ParseMode(e.Mode, into)
	if err != nil {
		return nil, err
	}
	typ, err := patch.ParseType(e.Type)
	if err != nil {
		return nil, err
	}
	if e.Embedded != "" {
		return compileEmbedded(req, e, typ, fill)
	}
	if e.Format != "" {
		return nil, fmt.Errorf("format: says the language of the strings an embedded patch goes into, and there is no embedded")
	}
	text, file, err := patchText(req, e)
	if err != nil {
		return nil, err
	}
	targeted := e.Target != nil || len(e.Targets) > 0
	docs, err := parseDocuments(text, typ, targeted, e.Reject, fill)
	if err != nil {
		return nil, parseError(req, e, text, file, err)
	}
	c := &compiled{patchEntry: e, docs: docs, fill: fill}
	if targeted {
		if c.sel, err = selector.CompileSet(e.Set); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// patchText is an entry's patch, inline or read from its file (named for
// messages; "" when inline).
func patchText(req *fnrun.Request, e patchEntry) (text, file string, err error) {
	text, err = req.Files().InlineOrFile(e.Patch.Patch, e.Path, e.File)
	if err != nil {
		return "", "", err
	}
	file = cmp.Or(e.Path, e.File)
	if text == "" && file == "" {
		return "", "", fmt.Errorf("no patch: give patch (inline) or path (a file)")
	}
	return text, file, nil
}

// parseError is the error to report for an entry whose patch text does not
// parse: a file without a document is skipped (emptyFile), a YAML syntax
// error is told by its line.
func parseError(req *fnrun.Request, e patchEntry, text, file string, err error) error {
	if errors.Is(err, patch.ErrEmpty) && file != "" {
		return emptyFile(file)
	}
	return fnconfig.SyntaxError(req.Config, err, text, e.name, "patch", file)
}

// emptyFile is a patch file with no document, only comments or nothing:
// kustomize skips such a patch, and so do we, with an info result.
type emptyFile string

func (e emptyFile) Error() string { return fmt.Sprintf("patch file %q is empty", string(e)) }

// applier applies compiled entries in order, each on the result of the one
// before, keeping the selection index current.
type applier struct {
	entry.Run
	meta *mergemeta.Meta // schema files, CRDs, declared keys
	// renames are the name changes of the current entry, for followRenames.
	renames []namerefs.Target
	// checked remembers, per strategic document and kind, whether the
	// document is valid for that kind's schema: checked once, reported once.
	checked map[checkKey]error
	typos   map[checkKey]bool // checkTypos (typos.go)
	apply   *apply.Schema     // applySchema, built on first use
	// watch says and checks what each entry changes (explain:, validate:).
	watch *entry.Watch
}

type checkKey struct {
	doc              *document
	apiVersion, kind string
	// decls names the declared merge keys the type has (mergemeta).
	decls string
}

// schema is the run's merge metadata (mergemeta.Meta.Schema): built-in
// types, schema files, the CRDs among the items. A schema that cannot be
// read is an error, reported once; the built-in types stand in.
func (a *applier) schema() *schema.Schema {
	s, err := a.meta.SchemaOf(a.Ix)
	if err != nil {
		a.Errorf("", nil, "", "%v", err)
		s, _ = a.meta.Schema(nil)
	}
	return s
}

// typeFor is the schema type item i merges with, its declared lists
// included, and what identifies the declarations; false when a
// declaration cannot apply to it (reported once per entry and kind).
func (a *applier) typeFor(i int) (*schema.Type, string, bool) {
	a.schema() // reports a schema that cannot be read
	t, decls, err := a.meta.TypeFor(a.Ix, i)
	if err != nil {
		var de *mergemeta.DeclError
		if errors.As(err, &de) && de.First {
			a.Errorf(de.Entry, a.Ix.Item(i), de.Field, "%s", de.Msg)
		}
		return nil, "", false
	}
	return t, decls, true
}

// unapplied flags the declarations (mergeKeys, schemas) that applied to
// nothing: the lists they meant were replaced whole, in silence
// otherwise.
func (a *applier) unapplied() {
	scope := mergemeta.Scope{Root: "the resource", Noun: "resource", Strings: true,
		Roots: func(i int) []*yaml.Node { return []*yaml.Node{a.Ix.Item(i).YNode()} }}
	for _, f := range a.meta.Unapplied(a.Ix, scope) {
		a.Flag(f.Entry, f.Res, f.Field, f.Msg, "")
	}
}

// run applies entry c to the resources it selects.
func (a *applier) run(c *compiled) {
	if c.into != nil {
		a.runInto(c)
		return
	}
	var n entry.Counts
	changed := map[int]bool{}
	for di, d := range c.docs {
		selected := a.runDocument(c, d, changed, &n)
		n.Selected += selected
		if c.sel == nil && selected == 0 {
			a.ownMissing(c, di, d)
		}
	}
	if c.sel != nil && n.Selected == 0 {
		a.Req.NoMatch(c.OnNoMatch, c.name, c.sel.Explain(a.Ix, "target"))
	}
	n.Changed = len(changed)
	a.Summarize(c.name, n, c.fill)
	a.followRenames()
}

// runDocument applies document d of entry c to the resources it selects,
// which it returns the number of; it adds to n what it filled and
// deleted, and to changed the items it changed.
func (a *applier) runDocument(c *compiled, d *document, changed map[int]bool, n *entry.Counts) int {
	sel := c.sel
	if sel == nil {
		sel = d.own
	}
	selected := sel.Select(a.Ix)
	var elements smp.Tally
	for _, i := range selected {
		if a.Spent() {
			break
		}
		step := a.watch.Before(c.name, a.Ix.Item(i))
		before := step.Mark(a.Ix.Item(i))
		n.Filled += a.applyOne(c, d, i, &elements, step)
		switch {
		case a.Ix.Removed(i):
			n.Deleted++
			delete(changed, i)
			step.DoneAs(nil)
		case before.Changed(a.Ix.Item(i)):
			changed[i] = true
			step.Done()
		}
	}
	a.Elements(c.name, &elements, entry.Words{Patch: "the patch", Narrow: "; to change only those, narrow the target",
		Every: "podspec-patch's containerPatch with mode: default"})
	return len(selected)
}

// ownMissing reports that document di of an entry without a target found
// the resource it names nowhere.
func (a *applier) ownMissing(c *compiled, di int, d *document) {
	name := c.name
	if len(c.docs) > 1 {
		name = fmt.Sprintf("%s (document %d)", c.name, di)
	}
	msg := fmt.Sprintf("the patch names %s %s %s, which is not among the resources",
		d.Node.GetApiVersion(), d.Node.GetKind(), namespaced(d.Node))
	policy := c.OnNoMatch
	if policy == "" {
		policy, msg = untargetedPolicy(c, d), msg+untargetedHint(c, d)
	}
	a.Req.NoMatch(policy, name, msg)
}

// followRenames makes the references to the resources the entry renamed
// follow them, as kustomize's name reference transformer does. The index
// is built after the entry, once, however many resources it renamed.
func (a *applier) followRenames() {
	if len(a.renames) == 0 {
		return
	}
	refs := namerefs.NewIndex(a.Ix.Items())
	for _, t := range a.renames {
		refs.Rename(t)
	}
	a.renames = a.renames[:0]
}

// untargetedPolicy is the default for a document without a target that
// finds nothing. It names one resource exactly, so not finding it is a
// mistake (a typo, a base that changed) and an error, as in kustomize
// ("failed to find unique target for patch"). A document that deletes or
// renames its resource is the exception, a warning: on kpt's re-run of a
// pipeline over its own output the resource is gone, and that is right.
func untargetedPolicy(c *compiled, d *document) string {
	if d.Deletes || d.touchesIdentity && (c.Options.AllowNameChange || c.Options.AllowKindChange) {
		return "warn"
	}
	return "error"
}

func untargetedHint(c *compiled, d *document) string {
	if untargetedPolicy(c, d) == "error" {
		return " (kustomize fails here too; set onNoMatch: warn or ignore if that is expected)"
	}
	return ""
}

func namespaced(n *yaml.RNode) string {
	if ns := n.GetNamespace(); ns != "" {
		return ns + "/" + n.GetName()
	}
	return n.GetName()
}

// applyOne applies one document to item i; it returns how many values a
// default filled.
func (a *applier) applyOne(c *compiled, d *document, i int, elements *smp.Tally, step *entry.Step) int {
	res := a.Ix.Item(i)
	if !a.checkTypos(c, d, res) {
		return 0
	}
	if d.Type != patch.JSON {
		step.FieldsChecked() // checkTypos reported its unknown fields
	}
	if d.Deletes {
		a.Ix.Remove(i)
		return 0
	}
	t, ok := a.types(c, d, i)
	if !ok {
		return 0
	}
	var g guard
	if d.touchesIdentity {
		g = guardOf(res)
	}
	r, err := d.Apply(res, t, a.Req.Budget())
	if err != nil {
		a.report(c, res, err)
		return 0
	}
	elements.Add(i, r.Elements)
	if d.touchesIdentity && !a.keepIdentity(c, d, i, g) {
		return 0
	}
	return r.Filled
}

// types is what document d merges with into item i: a strategic
// document's merge metadata, an apply document's type (package apply).
// The document is checked against it once per document and kind; false
// when it cannot apply (reported once).
func (a *applier) types(c *compiled, d *document, i int) (patch.Types, bool) {
	var t patch.Types
	res := a.Ix.Item(i)
	key := checkKey{doc: d, apiVersion: res.GetApiVersion(), kind: res.GetKind()}
	var err error
	switch d.Type {
	case patch.Strategic:
		var ok bool
		if t.Strategic, key.decls, ok = a.typeFor(i); !ok {
			return t, false
		}
	case patch.Apply:
		t.Apply, err = a.applyType(i)
	default:
		return t, true
	}
	if known, seen := a.checked[key]; seen {
		return t, known == nil
	}
	if err == nil {
		err = d.Validate(t, a.Req.Budget())
	}
	if a.checked == nil {
		a.checked = map[checkKey]error{}
	}
	a.checked[key] = err
	if err != nil {
		// the same error for every resource of the kind: say it once
		a.report(c, res, err)
	}
	return t, err == nil
}

// applyType is the type item i merges with under an apply patch: its
// kind's, built-in or a CRD's (schema files and the resources), or deduced
// from its values. The error is a CRD schema that cannot be read.
func (a *applier) applyType(i int) (apply.Type, error) {
	res := a.Ix.Item(i)
	return a.applySchema().For(res.GetApiVersion(), res.GetKind())
}

// applySchema is what apply patches are typed with: the built-in kinds and
// the kinds of the CRDs among the schema files and the items, built on
// first use. (OpenAPI documents and declared merge keys are strategic
// merge's: an apply patch merges as the API server does. A CRD that cannot
// be read is schema's to report.)
func (a *applier) applySchema() *apply.Schema {
	if a.apply == nil {
		a.apply = apply.Builtin().WithCRDs(append(a.meta.CRDs(), a.Ix.Items()...))
	}
	return a.apply
}

// report records an error of an entry on a resource, with the field path a
// strategic merge error carries.
func (a *applier) report(c *compiled, res *yaml.RNode, err error) {
	field := ""
	if se, ok := err.(*smp.Error); ok {
		field, err = se.Path, fmt.Errorf("%s", se.Msg)
	}
	a.Errorf(c.name, res, field, "%v", err)
}
