package multipatch

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/namerefs"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Function is the multi-patch function.
var Function = fnrun.Function{
	Name:  "multi-patch",
	Short: "apply strategic merge, JSON and merge patches to every resource a selector matches",
	Kinds: []string{kindMultiPatch, kindPatchTransformer},
	Run:   transform,
}

// maxErrors bounds the error results of one run: past that, more of the
// same helps nobody.
const maxErrors = 50

// compiled is a config entry ready to run.
type compiled struct {
	entry
	docs []*document
	sel  *selector.SetMatcher // nil: each document selects its own resource
	// fill is set for mode: default (smp.Options.Default).
	fill bool
	// into is set for a patch into strings (embedded.go).
	into *intoStrings
}

func transform(req *fnrun.Request) error {
	entries, mc, err := decode(req.Config)
	if err != nil {
		return err
	}
	meta, err := mergemeta.Load(req, mc)
	if err != nil {
		return splitErrors(err)
	}
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
	if len(errs) > 0 {
		return errs
	}

	a := applier{req: req, ix: selector.NewIndex(req.Items, req.Config), meta: meta}
	for _, c := range patches {
		a.run(c)
		if len(a.errs) >= maxErrors {
			break
		}
	}
	if len(a.errs) > 0 {
		return a.errs
	}
	req.Items = a.ix.Items()
	return nil
}

// splitErrors makes each of several joined errors a result of its own.
func splitErrors(err error) error {
	multi, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return err
	}
	var rs framework.Results
	for _, e := range multi.Unwrap() {
		rs = append(rs, fnrun.Errorf("", nil, "", "%v", e))
	}
	return rs
}

func compile(req *fnrun.Request, e entry) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(e.OnNoMatch); err != nil {
		return nil, err
	}
	switch e.Mode {
	case "", modeDefault:
	default:
		return nil, fmt.Errorf("mode: unknown mode %q (want default, which fills only what a resource lacks; or no mode)", e.Mode)
	}
	if e.Embedded != "" {
		return compileEmbedded(req, e)
	}
	if e.Format != "" {
		return nil, fmt.Errorf("format: says the language of the strings an embedded patch goes into, and there is no embedded")
	}
	text, err := req.InlineOrFile(e.Patch.Patch, e.Path, e.File)
	if err != nil {
		return nil, err
	}
	if file := cmp.Or(e.Path, e.File); file != "" {
		if nodes, err := splitYAML(text); err == nil && len(nodes) == 0 {
			return nil, emptyFile(file)
		}
	}
	if text == "" {
		return nil, fmt.Errorf("no patch: give patch (inline) or path (a file)")
	}
	targeted := e.Target != nil || len(e.Targets) > 0
	fill := e.Mode == modeDefault
	docs, err := parseDocuments(text, e.Type, targeted, e.Reject, fill)
	if err != nil {
		return nil, req.SyntaxError(err, text, e.name, "patch", cmp.Or(e.Path, e.File))
	}
	c := &compiled{entry: e, docs: docs, fill: fill}
	if targeted {
		if c.sel, err = selector.CompileSet(e.Set); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// emptyFile is a patch file with no document, only comments or nothing:
// kustomize skips such a patch, and so do we, with an info result.
type emptyFile string

func (e emptyFile) Error() string { return fmt.Sprintf("patch file %q is empty", string(e)) }

// applier applies compiled entries in order, each on the result of the one
// before, keeping the selection index current.
type applier struct {
	req  *fnrun.Request
	ix   *selector.Index
	meta *mergemeta.Meta // schema files, CRDs, declared keys
	errs framework.Results
	// renames are the name changes of the current entry, for followRenames.
	renames []namerefs.Target
	// checked remembers, per strategic document and kind, whether the
	// document is valid for that kind's schema: checked once, reported once.
	checked map[checkKey]error
	typos   map[checkKey]bool // checkTypos (typos.go)
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
	s, err := a.meta.Schema(a.ix.Items())
	if err != nil {
		a.errs = append(a.errs, fnrun.Errorf("", nil, "", "%v", err))
		s, _ = a.meta.Schema(nil)
	}
	return s
}

// typeFor is the schema type item i merges with, its declared lists
// included, and what identifies the declarations; false when a
// declaration cannot apply to it (reported once per entry and kind).
func (a *applier) typeFor(i int) (*schema.Type, string, bool) {
	a.schema() // reports a schema that cannot be read
	t, decls, err := a.meta.TypeFor(a.ix, i)
	if err != nil {
		var de *mergemeta.DeclError
		if errors.As(err, &de) {
			if de.First {
				a.errs = append(a.errs, fnrun.Errorf(de.Entry, a.ix.Item(i), de.Field, "%s", de.Msg))
			}
			return nil, "", false
		}
		return nil, "", false
	}
	return t, decls, true
}

func (a *applier) run(c *compiled) {
	if c.into != nil {
		a.runInto(c)
		return
	}
	matched, filled := 0, 0
	changed, deleted := map[int]bool{}, 0
	for di, d := range c.docs {
		sel := c.sel
		if sel == nil {
			sel = d.own
		}
		selected := sel.Select(a.ix)
		var elements smp.Tally
		for _, i := range selected {
			before := fnrun.Fingerprint(a.ix.Item(i))
			filled += a.applyOne(c, d, i, &elements)
			switch {
			case a.ix.Removed(i):
				deleted++
				delete(changed, i)
			case fnrun.Changed(before, a.ix.Item(i)):
				changed[i] = true
			}
		}
		matched += len(selected)
		a.reportElements(c, &elements)
		if c.sel == nil && len(selected) == 0 {
			// each document of an untargeted patch names its own resource
			name := c.name
			if len(c.docs) > 1 {
				name = fmt.Sprintf("%s (document %d)", c.name, di)
			}
			msg := fmt.Sprintf("the patch names %s %s %s, which is not among the resources",
				d.node.GetApiVersion(), d.node.GetKind(), namespaced(d.node))
			policy := c.OnNoMatch
			if policy == "" {
				policy, msg = untargetedPolicy(c, d), msg+untargetedHint(c, d)
			}
			a.req.NoMatch(policy, name, msg)
		}
	}
	if c.sel != nil && matched == 0 {
		a.req.NoMatch(c.OnNoMatch, c.name, c.sel.Explain(a.ix, "target"))
	}
	summary := fmt.Sprintf("%s changed", fnrun.Plural(len(changed), "resource"))
	if deleted > 0 {
		summary += fmt.Sprintf(", %d deleted", deleted)
	}
	summary = fmt.Sprintf("%s (%d selected)", summary, matched)
	if c.fill {
		summary += fmt.Sprintf(": defaults filled %s; %s left as %s", fnrun.Plural(filled, "field"),
			fnrun.Plural(matched-len(changed), "resource"), wasWere(matched-len(changed)))
	}
	a.req.Summarize(c.name, "%s", summary)
	a.followRenames()
}

func wasWere(n int) string {
	if n == 1 {
		return "it was"
	}
	return "they were"
}

// followRenames makes the references to the resources the entry renamed
// follow them, as kustomize's name reference transformer does. The index
// is built after the entry, once, however many resources it renamed.
func (a *applier) followRenames() {
	if len(a.renames) == 0 {
		return
	}
	refs := namerefs.NewIndex(a.ix.Items())
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
	if d.deletes || d.touchesIdentity && (c.Options.AllowNameChange || c.Options.AllowKindChange) {
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
func (a *applier) applyOne(c *compiled, d *document, i int, elements *smp.Tally) int {
	res := a.ix.Item(i)
	if !a.checkTypos(c, d, res) {
		return 0
	}
	var before identity
	var metaBefore *yaml.Node
	if d.touchesIdentity {
		before = identityOf(res)
		if m := res.Field("metadata"); m != nil {
			metaBefore = yaml.CopyYNode(m.Value.YNode())
		}
	}
	var t *schema.Type
	if d.typ == typeSMP && !d.deletes {
		var decls string
		var ok bool
		if t, decls, ok = a.typeFor(i); !ok {
			return 0
		}
		key := checkKey{d, res.GetApiVersion(), res.GetKind(), decls}
		err, seen := a.checked[key]
		if !seen {
			err = smp.ValidateWith(d.node, t, smp.Options{Default: d.fill})
			if a.checked == nil {
				a.checked = map[checkKey]error{}
			}
			a.checked[key] = err
		}
		if err != nil {
			if !seen { // the same error for every resource of the kind: say it once
				a.report(c, res, err)
			}
			return 0
		}
	}
	remove, r, err := d.apply(res, t)
	if err != nil {
		a.report(c, res, err)
		return 0
	}
	elements.Add(i, r.Elements)
	if remove {
		a.ix.Remove(i)
		return 0
	}
	if d.touchesIdentity {
		nulled, field, problem := normalizeIdentity(res)
		if problem != "" {
			// named as it was: the run fails, and the items go out as
			// they came in
			before.put(res, metaBefore)
			a.report(c, res, fmt.Errorf("%s %s; a resource keeps its apiVersion, kind and metadata.name as strings (and metadata as a map), so the patch cannot apply", field, problem))
			return 0
		}
		if removed := before.restoreRemoved(res); len(removed) > 0 {
			what := "removes " + strings.Join(removed, ", ")
			switch {
			case slices.Equal(nulled, removed):
				what = "sets " + strings.Join(nulled, ", ") + " to null"
			case len(nulled) > 0:
				what = "sets " + strings.Join(nulled, ", ") + " to null, which removes " + strings.Join(removed, ", ")
			}
			a.req.Results = append(a.req.Results, fnrun.Warningf(c.name, res, removed[0],
				"the patch %s; a resource keeps its identity, so it was restored (to delete the resource, use $patch: delete)", what))
		}
		if undone := before.restore(res, c.Options, d.typ == typeSMP); undone != "" && d.typ != typeSMP {
			a.req.Results = append(a.req.Results, fnrun.Warningf(c.name, res, undone,
				"the patch changes %s; the change was undone (set options.%s: true to allow it)", undone, optionFor(undone)))
		}
		if now := identityOf(res); now.kind != before.kind || now.name != before.name || now.namespace != before.namespace {
			// Later steps of a kustomize build find it by its earlier ID.
			if err := selector.RecordEarlierID(res, selector.ID{Kind: before.kind, Name: before.name, Namespace: before.namespace}); err != nil {
				a.report(c, res, err)
				return 0
			}
			if now.kind == before.kind && now.namespace == before.namespace {
				a.renames = append(a.renames, namerefs.Target{Kind: now.kind, Namespace: now.namespace, Old: before.name, New: now.name})
			}
		}
		a.ix.Refresh(i)
	}
	return r.Filled
}

// report records an error of an entry on a resource, with the field path a
// strategic merge error carries.
func (a *applier) report(c *compiled, res *yaml.RNode, err error) {
	field := ""
	if se, ok := err.(*smp.Error); ok {
		field, err = se.Path, fmt.Errorf("%s", se.Msg)
	}
	a.errs = append(a.errs, fnrun.Errorf(c.name, res, field, "%v", err))
}

func optionFor(field string) string {
	if field == "kind" {
		return "allowKindChange"
	}
	return "allowNameChange"
}

// identity is what a patch may not change unless the options allow it.
// (kpt's and kustomize's own annotations are restored by fnrun.)
type identity struct{ apiVersion, kind, name, namespace string }

func identityOf(r *yaml.RNode) identity {
	return identity{r.GetApiVersion(), r.GetKind(), r.GetName(), r.GetNamespace()}
}

// normalizeIdentity checks the identity fields a patch left: apiVersion,
// kind and metadata.name are strings, metadata a map, metadata.namespace a
// string if anything. One set to null is taken as removed (restoreRemoved
// puts it back, as for a removal) and listed in nulled. Anything else, a
// number, a list, metadata: "", is a problem: field names it and problem
// says what the patch made of it.
func normalizeIdentity(r *yaml.RNode) (nulled []string, field, problem string) {
	root := r.YNode()
	for _, f := range []string{"apiVersion", "kind", "metadata"} {
		i := fieldIndex(root, f)
		if i < 0 {
			continue
		}
		v := root.Content[i+1]
		switch {
		case isNull(v):
			root.Content = append(root.Content[:i:i], root.Content[i+2:]...)
			nulled = append(nulled, f)
		case f == "metadata" && v.Kind != yaml.MappingNode:
			return nulled, f, "is made " + describeNode(v)
		case f != "metadata" && !isString(v):
			return nulled, f, "is made " + describeNode(v)
		}
	}
	meta := fieldIndex(root, "metadata")
	if meta < 0 {
		return nulled, "", ""
	}
	m := root.Content[meta+1]
	for _, f := range []string{"name", "namespace"} {
		i := fieldIndex(m, f)
		if i < 0 {
			continue
		}
		switch v := m.Content[i+1]; {
		case isNull(v):
			m.Content = append(m.Content[:i:i], m.Content[i+2:]...)
			if f == "name" {
				nulled = append(nulled, "metadata.name")
			}
		case !isString(v):
			return nulled, "metadata." + f, "is made " + describeNode(v)
		}
	}
	return nulled, "", ""
}

func fieldIndex(m *yaml.Node, key string) int {
	if m.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func isString(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" }

// describeNode says what a value is, for messages: "a list", "the number 5".
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a map"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch n.ShortTag() {
	case "!!str":
		if n.Value == "" {
			return "the empty string"
		}
		return "a string"
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	}
	return "a " + strings.TrimPrefix(n.ShortTag(), "!!")
}

// put sets the identity back as it was, metadata whole, for a message
// about a resource the patch left without one.
func (id identity) put(r *yaml.RNode, meta *yaml.Node) {
	r.SetApiVersion(id.apiVersion)
	r.SetKind(id.kind)
	if meta != nil {
		_ = r.PipeE(yaml.SetField("metadata", yaml.NewRNode(meta)))
	}
}

// restoreRemoved puts back the apiVersion, kind and metadata.name a patch
// removed (a JSON patch removing /metadata, a strategic patch whose root
// says $patch: replace or $retainKeys): without them the output is no
// resource at all. It returns the fields it restored.
func (id identity) restoreRemoved(r *yaml.RNode) []string {
	var removed []string
	if r.GetApiVersion() == "" && id.apiVersion != "" {
		r.SetApiVersion(id.apiVersion)
		removed = append(removed, "apiVersion")
	}
	if r.GetKind() == "" && id.kind != "" {
		r.SetKind(id.kind)
		removed = append(removed, "kind")
	}
	if r.GetName() == "" && id.name != "" {
		_ = r.SetName(id.name)
		removed = append(removed, "metadata.name")
		if r.GetNamespace() == "" && id.namespace != "" {
			// metadata went as a whole: the namespace is part of the name
			_ = r.SetNamespace(id.namespace)
			removed = append(removed, "metadata.namespace")
		}
	}
	if len(removed) > 0 {
		identityFirst(r.YNode())
	}
	return removed
}

// identityFirst moves apiVersion, kind and metadata, restored at the end of
// a map, back to its front, where resources have them.
func identityFirst(m *yaml.Node) {
	var front, rest []*yaml.Node
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value == k {
				front = append(front, m.Content[i], m.Content[i+1])
			}
		}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "apiVersion", "kind", "metadata":
		default:
			rest = append(rest, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = append(front, rest...)
}

// restore undoes kind and name changes the options do not allow, and for a
// strategic merge patch apiVersion and namespace changes too (its own are
// an address, not an edit; kustomize does the same). It returns the field
// whose change it undid, if any.
func (id identity) restore(r *yaml.RNode, o Options, strategic bool) string {
	undone := ""
	if strategic && r.GetApiVersion() != id.apiVersion {
		r.SetApiVersion(id.apiVersion)
	}
	if strategic && r.GetNamespace() != id.namespace {
		if id.namespace == "" {
			_ = r.PipeE(yaml.Lookup("metadata"), yaml.Clear("namespace"))
		} else {
			_ = r.SetNamespace(id.namespace)
		}
	}
	if !o.AllowKindChange && r.GetKind() != id.kind {
		r.SetKind(id.kind)
		undone = "kind"
	}
	if !o.AllowNameChange && r.GetName() != id.name {
		_ = r.SetName(id.name)
		undone = "metadata.name"
	}
	return undone
}
