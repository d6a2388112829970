package multipatch

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
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
}

func transform(req *fnrun.Request) error {
	entries, err := decode(req.Config)
	if err != nil {
		return err
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

	a := applier{req: req, ix: selector.NewIndex(req.Items, req.Config)}
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

func compile(req *fnrun.Request, e entry) (*compiled, error) {
	if err := fnrun.CheckOnNoMatch(e.OnNoMatch); err != nil {
		return nil, err
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
	docs, err := parseDocuments(text, e.Type, targeted, e.Reject)
	if err != nil {
		return nil, req.SyntaxError(err, text, e.name, "patch", cmp.Or(e.Path, e.File))
	}
	c := &compiled{entry: e, docs: docs}
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
	req    *fnrun.Request
	ix     *selector.Index
	schema *schema.Schema
	errs   framework.Results
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
}

func (a *applier) schemaFor(res *yaml.RNode) *schema.Type {
	if a.schema == nil {
		s, ignored, err := schema.Builtin().WithCRDs(a.ix.Items())
		if err != nil {
			a.errs = append(a.errs, fnrun.Errorf("", nil, "", "reading CustomResourceDefinitions: %v", err))
			s = schema.Builtin()
		}
		for _, ic := range ignored {
			a.req.Results = append(a.req.Results, fnrun.Warningf("", ic.CRD, "", "%s", ic))
		}
		a.schema = s
	}
	return a.schema.Lookup(res.GetApiVersion(), res.GetKind())
}

func (a *applier) run(c *compiled) {
	matched := 0
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
			a.applyOne(c, d, i, &elements)
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
	a.req.Summarize(c.name, "%s (%d selected)", summary, matched)
	a.followRenames()
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

func (a *applier) applyOne(c *compiled, d *document, i int, elements *smp.Tally) {
	res := a.ix.Item(i)
	if !a.checkTypos(c, d, res) {
		return
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
		t = a.schemaFor(res)
		key := checkKey{d, res.GetApiVersion(), res.GetKind()}
		err, seen := a.checked[key]
		if !seen {
			err = smp.Validate(d.node, t)
			if a.checked == nil {
				a.checked = map[checkKey]error{}
			}
			a.checked[key] = err
		}
		if err != nil {
			if !seen { // the same error for every resource of the kind: say it once
				a.report(c, res, err)
			}
			return
		}
	}
	remove, els, err := d.apply(res, t)
	if err != nil {
		a.report(c, res, err)
		return
	}
	elements.Add(i, els)
	if remove {
		a.ix.Remove(i)
		return
	}
	if d.touchesIdentity {
		nulled, field, problem := normalizeIdentity(res)
		if problem != "" {
			// named as it was: the run fails, and the items go out as
			// they came in
			before.put(res, metaBefore)
			a.report(c, res, fmt.Errorf("%s %s; a resource keeps its apiVersion, kind and metadata.name as strings (and metadata as a map), so the patch cannot apply", field, problem))
			return
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
				return
			}
			if now.kind == before.kind && now.namespace == before.namespace {
				a.renames = append(a.renames, namerefs.Target{Kind: now.kind, Namespace: now.namespace, Old: before.name, New: now.name})
			}
		}
		a.ix.Refresh(i)
	}
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
