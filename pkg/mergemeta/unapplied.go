package mergemeta

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// A declaration that applies to nothing fails nothing: a mergeKeys path
// one letter off (spec.task for spec.tasks), one that stops at a map, a
// selector that selects no resource, a CRD for the same kind in another
// group (ci.example.org where the resources are ci.example.com). The
// lists it meant stay atomic, and a patch replaces them whole, elements
// lost. Unapplied finds each such declaration after a run, for the
// function to say so.

// source is one schemas entry: the kinds its files define, and where.
type source struct {
	entry, path string // schemas[0], crds/
	kinds       []definedKind
}

type definedKind struct {
	schema.Kind
	file string // crds/pipeline.yaml, or with (document 1) or items[2]
}

// add notes the kinds document d of file defines.
func (src *source) add(file string, d *yaml.Node) {
	for _, k := range schema.KindsDefined(d) {
		src.kinds = append(src.kinds, definedKind{k, file})
	}
}

// Finding is a declaration that applies to nothing in a run: a warning,
// or an error under strict.
type Finding struct {
	// Entry is the declaration ("mergeKeys[0]", "schemas[1]"), Res the
	// resource the message speaks of (nil: none) and Field the place.
	Entry string
	Res   *yaml.RNode
	Field string
	Msg   string
}

// Scope says where a function's declarations apply.
type Scope struct {
	// Roots are the documents the declarations' paths start at in item
	// i: the resource (multi-patch), its PodSpec (podspec-patch); none
	// where it has none.
	Roots func(i int) []*yaml.Node
	// At, when set, is where that document is in item i, a field path
	// the places of messages start with ("spec.template.spec").
	At func(i int) string
	// Root names such a document, Noun what holds it: "the resource",
	// "resource".
	Root, Noun string
	// Strings says a path goes on into the JSON or YAML documents strings
	// hold (multi-patch's embedded patches).
	Strings bool
	// NoSchemas, when set, says why no schema file applies here at all.
	NoSchemas string
}

// Unapplied checks each declaration against the items of ix as they are
// after the run: a mergeKeys entry that selects no resource, or whose
// path leads to no list in any it selects (schema.Reach says where it
// stopped and what is near); a schemas entry none of whose kinds a
// resource is, or that defines the kind of a resource no schema
// describes in another group or version.
func (m *Meta) Unapplied(ix *selector.Index, sc Scope) []Finding {
	var out []Finding
	for _, d := range m.decls {
		if f, ok := d.unreached(ix, sc); ok {
			out = append(out, f)
		}
	}
	return append(out, m.unusedSchemas(ix, sc)...)
}

// unreached is the finding of a declaration that leads to no list in the
// resources it selects; false when it leads to one.
func (d decl) unreached(ix *selector.Index, sc Scope) (Finding, bool) {
	chosen := d.sel.Select(ix)
	selected, first := 0, Finding{Entry: d.name}
	for _, i := range chosen {
		roots := sc.Roots(i)
		if len(roots) > 0 {
			selected++
		}
		res := ix.Item(i)
		o := schema.ReachOptions{Root: sc.Root, Strings: sc.Strings, Secret: res.GetKind() == "Secret"}
		for _, root := range roots {
			r := d.Reach(root, o)
			if r.Lists > 0 {
				return Finding{}, false
			}
			if first.Msg == "" {
				first.Res, first.Field, first.Msg = res, sc.field(i, r.At), r.Why
			}
		}
	}
	if selected == 0 {
		return d.selectsNone(ix, sc, len(chosen)), true
	}
	path := "the path"
	if !strings.HasSuffix(first.Field, d.Path.String()) {
		path += " " + d.Path.String()
	}
	first.Msg = fmt.Sprintf("%s leads to no list in the %s the declaration selects: %s; %s",
		path, fnrun.Plural(selected, sc.Noun), first.Msg, d.replaced())
	return first, true
}

// field is the place at, in the document the paths start at in item i,
// as a field path of the item.
func (sc Scope) field(i int, at string) string {
	if sc.At == nil {
		return at
	}
	root := sc.At(i)
	if root == "" || at == "" {
		return root + at
	}
	return root + "." + at
}

// selectsNone is the finding of a declaration that selects nothing its
// path could start at: no resource (chosen is 0), or none that holds one.
func (d decl) selectsNone(ix *selector.Index, sc Scope, chosen int) Finding {
	why := d.sel.Explain(ix, "target")
	if chosen > 0 {
		why = fmt.Sprintf("none of the %s it selects holds a %s", fnrun.Plural(chosen, "resource"), strings.TrimPrefix(sc.Root, "the "))
	}
	return Finding{Entry: d.name, Field: d.Path.String(),
		Msg: fmt.Sprintf("the declaration applies to no %s (%s); %s", sc.Noun, why, d.replaced())}
}

// replaced says what becomes of the lists a declaration meant.
func (d decl) replaced() string {
	return fmt.Sprintf("no list merges by %s, and a patch replaces the lists it meant whole", keyList(d.Keys))
}

func keyList(keys []string) string { return "[" + strings.Join(keys, ", ") + "]" }

// unusedSchemas are the findings of the schemas entries: those defining
// the kind of a resource no schema describes in another group or
// version, and those none of whose kinds any resource is.
func (m *Meta) unusedSchemas(ix *selector.Index, sc Scope) []Finding {
	var out []Finding
	if sc.NoSchemas != "" {
		for _, src := range m.sources {
			out = append(out, Finding{Entry: src.entry, Msg: fmt.Sprintf("%s: %s", src.path, sc.NoSchemas)})
		}
		return out
	}
	if len(m.sources) == 0 {
		return nil
	}
	if _, err := m.Schema(ix.Items()); err != nil {
		return nil // reported where a merge needed it
	}
	for _, src := range m.sources {
		near := m.nearKinds(src, ix)
		switch {
		case len(near) > 0:
			out = append(out, near...)
		case !src.applies(ix):
			out = append(out, Finding{Entry: src.entry,
				Msg: fmt.Sprintf("%s defines %s, and no resource is of any of them: the entry changes no merge", src.path, src.kindList())})
		}
	}
	return out
}

// applies reports whether a resource of ix is of a kind src defines.
func (src source) applies(ix *selector.Index) bool {
	for i := range ix.Len() {
		if ix.Removed(i) {
			continue
		}
		k := schema.Kind{APIVersion: ix.Item(i).GetApiVersion(), Kind: ix.Item(i).GetKind()}
		if slices.ContainsFunc(src.kinds, func(d definedKind) bool { return d.Kind == k }) {
			return true
		}
	}
	return false
}

// nearKinds are the findings of the resources whose kind no schema
// describes while src defines that kind in another group or version:
// one per kind, naming its first resource.
func (m *Meta) nearKinds(src source, ix *selector.Index) []Finding {
	var out []Finding
	seen := map[schema.Kind]bool{}
	for i := range ix.Len() {
		res := ix.Item(i)
		k := schema.Kind{APIVersion: res.GetApiVersion(), Kind: res.GetKind()}
		if ix.Removed(i) || seen[k] || m.schema.Lookup(k.APIVersion, k.Kind) != nil {
			continue
		}
		seen[k] = true
		if d, ok := src.sameKindElsewhere(k); ok {
			out = append(out, Finding{Entry: src.entry, Res: res, Msg: nearKindMsg(d, k)})
		}
	}
	return out
}

// sameKindElsewhere is what src defines of k's kind at another
// apiVersion, the same group first.
func (src source) sameKindElsewhere(k schema.Kind) (definedKind, bool) {
	var found []definedKind
	for _, d := range src.kinds {
		if d.Kind.Kind == k.Kind && d.APIVersion != k.APIVersion {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return definedKind{}, false
	}
	if j := slices.IndexFunc(found, func(d definedKind) bool { return d.Group() == k.Group() }); j >= 0 {
		return found[j], true
	}
	return found[0], true
}

func nearKindMsg(d definedKind, k schema.Kind) string {
	const rest = "no schema describes it, so a patch replaces its lists whole"
	if d.Group() == k.Group() {
		return fmt.Sprintf("%s defines %s at %s, not at this resource's %s: %s", d.file, k.Kind, d.APIVersion, k.APIVersion, rest)
	}
	return fmt.Sprintf("%s defines %s in %s (%s), and this resource is %s: %s", d.file, k.Kind, groupName(d.Group()), d.APIVersion, k.APIVersion, rest)
}

func groupName(g string) string {
	if g == "" {
		return "the core group"
	}
	return "group " + g
}

// kindList names the kinds src defines, a few of them.
func (src source) kindList() string {
	var names []string
	for _, d := range src.kinds {
		if n := d.APIVersion + " " + d.Kind.Kind; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return fnrun.Plural(len(names), "kind") + " (" + listSome(names) + ")"
}
