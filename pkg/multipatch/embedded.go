package multipatch

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/embedpatch"
	"github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/mergemeta"
	"github.com/patchwork-krm/patchwork/pkg/patch"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

// A patch into strings (an entry with embedded:) goes into the JSON or
// YAML documents that strings of the selected resources hold: the
// prometheus.yml of a ConfigMap, the config.json of a Secret's stringData.
// The edit is package embedpatch's: only what the patch changes is
// rewritten in the string.

// intoStrings is what an entry with embedded: adds to its compiled form.
type intoStrings struct {
	path   fieldpath.Path
	patch  *embedpatch.Patch
	format embedded.Format
}

func compileEmbedded(req *fnrun.Request, e patchEntry, typ patch.Type, fill bool) (*compiled, error) {
	if e.Target == nil && len(e.Targets) == 0 {
		return nil, fmt.Errorf("embedded: a patch into strings needs a target (target or targets): the patch does not name the resources it goes into")
	}
	if e.Options.AllowNameChange || e.Options.AllowKindChange {
		return nil, fmt.Errorf("options: allowNameChange and allowKindChange are for patches that may rename a resource; a patch into strings never does")
	}
	path, err := fieldpath.Parse(e.Embedded)
	if err != nil {
		return nil, fmt.Errorf("embedded: %v", err)
	}
	into := &intoStrings{path: path}
	switch strings.ToLower(e.Format) {
	case "":
	case "json":
		into.format = embedded.JSON
	case "yaml", "yml":
		into.format = embedded.YAML
	default:
		return nil, fmt.Errorf("format: %q is not json or yaml", e.Format)
	}
	text, file, err := patchText(req, e)
	if err != nil {
		return nil, err
	}
	if into.patch, err = embedpatch.Parse(typ, text, fill); err != nil {
		return nil, parseError(req, e, text, file, err)
	}
	c := &compiled{patchEntry: e, into: into, fill: fill}
	if c.sel, err = selector.CompileSet(e.Set); err != nil {
		return nil, err
	}
	return c, nil
}

// runInto applies an entry with embedded: to the strings of every
// resource it selects.
func (a *applier) runInto(c *compiled) {
	selected := c.sel.Select(a.Ix)
	n := entry.Counts{Selected: len(selected)}
	for _, i := range selected {
		if a.Spent() {
			break
		}
		res := a.Ix.Item(i)
		step := a.watch.Before(c.name, res)
		before := step.Mark(res)
		a.intoResource(c, i, step)
		if before.Changed(res) {
			n.Changed++
			step.Done()
		}
	}
	if len(selected) == 0 {
		a.Req.NoMatch(c.OnNoMatch, c.name, c.sel.Explain(a.Ix, "target"))
	}
	// the summary of a default too counts resources, not the values filled
	a.Summarize(c.name, n, false)
}

// intoResource patches the strings the entry's path leads to in item i,
// telling step which strings hold the documents it edits.
func (a *applier) intoResource(c *compiled, i int, step *entry.Step) {
	res := a.Ix.Item(i)
	secret := res.GetKind() == "Secret"
	places, missing, err := findStrings(res.YNode(), c.into.path, secret, a.Req.Budget())
	if err != nil {
		a.Errorf(c.name, res, c.into.path.String(), "%v", err)
		return
	}
	if len(places) == 0 {
		a.stringMissing(c, res, missing.at, missing.msg)
		return
	}
	for _, p := range places {
		t, err := a.meta.EmbeddedType(a.Ix, i, p.steps)
		if err != nil {
			var de *mergemeta.DeclError
			if errors.As(err, &de) {
				a.Errorf(de.Entry, res, de.Field, "%s", de.Msg)
				return
			}
		}
		where := p.path.String()
		if p.node.Kind != yaml.ScalarNode || p.node.ShortTag() != "!!str" {
			a.stringMissing(c, res, where, fmt.Sprintf("holds %s, not a string with a JSON or YAML document (a strategic or merge patch without embedded: patches the resource's own fields)", yamltree.DescribeSecret(p.node, secret)))
			continue
		}
		out, err := c.into.patch.Apply(p.node.Value, embedpatch.Options{Where: p.path, Format: c.into.format, Type: t, Secret: secret,
			Apply: a.applySchema(), Budget: a.Req.Budget()})
		if err != nil {
			a.notApplied(c, res, p, secret, err)
			continue
		}
		p.node.Value = out
		step.Document(p.node, t)
	}
}

// notApplied reports why the entry's patch did not go into the string at
// p: the patch cannot apply to the document there (an error), the
// document gives a key twice (an error too: the resource has the document,
// so onNoMatch does not skip it), or the string holds no document the
// patch can go into (stringMissing).
func (a *applier) notApplied(c *compiled, res *yaml.RNode, p stringPlace, secret bool, err error) {
	where := p.path.String()
	var pe *embedpatch.Error
	var ee *embedded.Error
	switch {
	case errors.As(err, &pe):
		a.Errorf(c.name, res, where, "%s", pe.Msg)
	case errors.As(err, &ee) && ee.Ambiguous:
		a.Errorf(c.name, res, where, "%s", ee.Msg)
	case secret && len(p.path) > 0 && p.path[0].Key == "data":
		a.stringMissing(c, res, where, err.Error()+" (a Secret's data is base64-encoded; patch stringData instead)")
	default:
		a.stringMissing(c, res, where, err.Error()+embedded.FormatHint(err, "format"))
	}
}

// stringMissing reports a selected resource without the string the entry
// patches, or whose string holds no document the patch can go into: an
// error by default, since the entry names the place exactly; onNoMatch
// warn or ignore skips the resource.
func (a *applier) stringMissing(c *compiled, res *yaml.RNode, field, msg string) {
	switch c.OnNoMatch {
	case "ignore":
	case "warn":
		a.Warnf(c.name, res, field, "%s; skipped (onNoMatch: warn)", msg)
	default:
		a.Errorf(c.name, res, field, "%s (onNoMatch: warn or ignore skips resources without it)", msg)
	}
}

// stringPlace is one string an embedded path leads to.
type stringPlace struct {
	node  *yaml.Node
	steps []fieldpath.Step[*yaml.Node]
	path  fieldpath.Path // the way there, each step named exactly
}

// why says where, and why, a path leads nowhere.
type why struct{ at, msg string }

// findStrings walks a resource along path (fieldpath.Walk), charging b.
// It returns the places reached, or, when there are none, why (the first
// dead end met). In a Secret the keys of data and stringData are not
// listed: they say what it holds. The error is the budget's (yaml trees
// have no lookup errors).
func findStrings(root *yaml.Node, path fieldpath.Path, secret bool, b *budget.Budget) ([]stringPlace, why, error) {
	ends, err := fieldpath.Walker[*yaml.Node]{Tree: yamltree.Tree{}, Budget: b}.Walk(root, path, 0)
	if err != nil {
		return nil, why{}, err
	}
	var out []stringPlace
	var first why
	for _, e := range ends {
		n, at := yamltree.Resolve(e.Node), fieldpath.Taken(yamltree.Tree{}, e.Steps)
		switch {
		case !e.Dead:
			out = append(out, stringPlace{node: n, steps: e.Steps, path: at})
		case first.msg == "":
			first = deadEnd(n, path, e.At, at, e.Sel, secret)
		}
	}
	return out, first, nil
}

// deadEnd says why path[i] selects nothing in n, reached by at.
func deadEnd(n *yaml.Node, path fieldpath.Path, i int, at fieldpath.Path, sel fieldpath.Selection, secret bool) why {
	seg := path[i]
	where := "the resource"
	if len(at) > 0 {
		where = at.String()
	}
	full := path[:i+1].String()
	switch {
	case n.Kind == yaml.MappingNode && sel.Missing:
		return why{full, fmt.Sprintf("%s has no key %q%s", where, seg.Key, missingKeyHint(n, path, i, at, secret))}
	case n.Kind == yaml.SequenceNode && len(n.Content) == 0:
		return why{full, fmt.Sprintf("%s is an empty list", where)}
	case n.Kind == yaml.SequenceNode && sel.Missing:
		hint, _ := fieldpath.NoMatch[*yaml.Node](yamltree.Tree{}, n, seg, secret)
		return why{full, fmt.Sprintf("no element of %s matches %s%s", where, seg, hint)}
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str":
		return why{at.String(), fmt.Sprintf("the path goes on (%s) below this string: embedded: ends at the string, and the patch's own paths go inside the document", path[i:])}
	}
	return why{full, fmt.Sprintf("%s is %s, so %s selects nothing there", where, yamltree.DescribeSecret(n, secret), seg)}
}

// missingKeyHint says what the key path[i], missing from map n (reached
// by at), most likely meant: the dotted key the path did not escape
// (data.api.json for the key api.json), or else the nearest key and those
// there; nothing for a Secret's data and stringData, whose keys say what
// it holds.
func missingKeyHint(n *yaml.Node, path fieldpath.Path, i int, at fieldpath.Path, secret bool) string {
	if secret && len(at) > 0 && (at[0].Key == "data" || at[0].Key == "stringData") {
		return ""
	}
	if dotted := fieldpath.DottedKeyHint[*yaml.Node](yamltree.Tree{}, n, path, i); dotted != "" {
		return dotted
	}
	return keysHint(n, path[i].Key)
}

// keysHint says what key of map n a missing key most likely meant, or
// what keys there are, if few.
func keysHint(n *yaml.Node, missing string) string {
	keys := make([]string, 0, len(n.Content)/2)
	for j := 0; j+1 < len(n.Content); j += 2 {
		keys = append(keys, yamltree.Tree{}.Key(n, j/2))
	}
	if near := suggest.Nearest(missing, keys); near != "" {
		return fmt.Sprintf(" (did you mean %s?)", near)
	}
	if len(keys) > 0 && len(keys) <= 12 {
		return " (keys there: " + strings.Join(keys, ", ") + ")"
	}
	return ""
}
