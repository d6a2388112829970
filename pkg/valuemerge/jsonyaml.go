package valuemerge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	yaml "go.yaml.in/yaml/v3"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// JSON and YAML values merge as data, by the one merge the project has:
// package smp's strategic merge on the decoded values. Without declared
// lists that is RFC 7386 (maps merge key by key, a null deletes, lists and
// scalars replace); with them, the lists they name merge by key, as a
// schema's lists do, and the directives ($patch, $retainKeys,
// $setElementOrder/…, $deleteFromPrimitiveList/…) mean what strategic
// merge says, never a key of the value. The result is written as edits of
// the base (Doc): only what the merge changes is rewritten. Where that
// cannot be done (the base is not a map, an inherited value goes), YAML
// is written whole from the merged nodes (order and comments kept, blank
// lines not) and JSON as the overlay wrote it or laid out as the base.

// parsed is a value as read: its text, its root and (YAML) its document
// node, which holds the comments around the root.
type parsed struct {
	text      string
	root, doc *yaml.Node
}

// parse reads a value of format f, checking it as Check does.
func parse(f Format, s, which string, cache *embedded.Cache) (*parsed, error) {
	if f == YAML {
		d, err := parseYAML(s, which)
		if err != nil {
			return nil, err
		}
		return &parsed{text: s, root: d.root, doc: d.doc}, nil
	}
	n, err := checkJSONTree(s, which, cache)
	if err != nil {
		return nil, err
	}
	if n == nil { // a scalar, which the editor does not hold
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(s), &doc); err != nil || len(doc.Content) == 0 {
			return nil, &ParseError{Which: which, Format: JSON, Msg: "the value does not parse"}
		}
		n = doc.Content[0]
	}
	return &parsed{text: s, root: n}, nil
}

// mergeDoc merges overlay into base (JSON or YAML), the lists declared
// merged by key, and says what each declaration's path reaches in the
// merged value (secret: a Secret's, whose keys it does not name).
func mergeDoc(f Format, base, overlay string, lists []schema.ListKeys, secret bool) (string, []schema.Reach, error) {
	cache := embedded.NewCache()
	o, patch, err := readOverlay(f, overlay, cache)
	if err != nil {
		return "", nil, err
	}
	t, err := listsType(lists)
	if err != nil {
		return "", nil, err
	}
	b, fresh, err := readBase(f, base, o, patch, t, cache)
	if err != nil {
		return "", nil, err
	}
	doc, err := mergeParsed(f, b, o, patch, t, cache)
	if err != nil {
		return "", nil, err
	}
	reaches := make([]schema.Reach, len(lists))
	for i, l := range lists {
		reaches[i] = l.Reach(doc.Want, schema.ReachOptions{Root: "the value", Secret: secret})
	}
	out, err := writeMerged(f, b, o, doc, fresh, patch)
	return out, reaches, err
}

// readOverlay reads the overlay, and the patch it makes: its value with
// aliases and << keys expanded.
func readOverlay(f Format, overlay string, cache *embedded.Cache) (*parsed, *yaml.Node, error) {
	o, err := parse(f, overlay, "overlay", cache)
	if err != nil {
		return nil, nil, err
	}
	patch := expandInherited(o.root)
	if yamltree.IsNull(patch) {
		return nil, nil, &ParseError{Which: "overlay", Format: f, Msg: "the value is null; a null overlay would delete everything"}
	}
	return o, patch, nil
}

// readBase reads the base; an empty one is fresh, and stands in as
// freshBase says.
func readBase(f Format, base string, o *parsed, patch *yaml.Node, t *schema.Type, cache *embedded.Cache) (*parsed, bool, error) {
	fresh := strings.TrimSpace(base) == ""
	if fresh {
		base = freshBase(f, o.text, patch, t)
	}
	b, err := parse(f, base, "base", cache)
	return b, fresh, err
}

// mergeParsed merges the patch into a Doc of the base: its Want is the
// merged value.
func mergeParsed(f Format, b, o *parsed, patch *yaml.Node, t *schema.Type, cache *embedded.Cache) (*Doc, error) {
	if err := matchedKeys(nil, b.root, patch); err != nil {
		return nil, err
	}
	doc, err := Open(b.text, b.root, Options{Format: f, Edit: embedded.Options{Cache: cache}, Overlay: &Overlay{Text: o.text, Root: o.root}, Who: "the overlay"})
	if err != nil {
		return nil, &ParseError{Which: "base", Format: f, Msg: err.Error()}
	}
	if _, err := smp.MergeWith(kyaml.NewRNode(doc.Want), kyaml.NewRNode(patch), t, smp.Options{Values: true}); err != nil {
		return nil, overlayError(err)
	}
	return doc, nil
}

// writeMerged writes the merged value as edits of the base, or whole
// where they cannot say it; a base the merge leaves as it is comes back
// as it is.
func writeMerged(f Format, b, o *parsed, doc *Doc, fresh bool, patch *yaml.Node) (string, error) {
	if !fresh && sameData(b.root, doc.Want) {
		return b.text, nil // nothing changes
	}
	out, err := "", ErrNotInPlace
	if !writeWhole(f, b, fresh, patch) {
		out, err = doc.Write()
	}
	if errors.Is(err, ErrNotInPlace) {
		return whole(f, b, o, doc)
	}
	return out, err
}

// listsType is the merge metadata the declarations make: a type whose
// declared lists merge by key (nil: none).
func listsType(lists []schema.ListKeys) (*schema.Type, error) {
	var t *schema.Type
	for _, l := range lists {
		next, err := t.WithListKeys(l)
		if err != nil {
			return nil, err
		}
		t = next
	}
	return t, nil
}

// freshBase stands in for an empty base: the overlay itself, merged into
// itself to lose its nulls, so that the result keeps the overlay's layout
// and comments; or, where the overlay holds what is not data of its own
// (directives, elements of keyed lists that merge into one another), an
// empty map.
func freshBase(f Format, overlay string, patch *yaml.Node, t *schema.Type) string {
	if t == nil && findNode(patch, holdsDirective) == nil || !isMap(patch) {
		return overlay
	}
	return "{}"
}

// holdsDirective reports whether n is a map with a key strategic merge
// takes for a directive ($patch, $retainKeys, $setElementOrder/…).
func holdsDirective(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if smp.IsDirective(n.Content[i].Value) {
			return true
		}
	}
	return false
}

// writeWhole says a YAML result is written whole from the start: the base
// is an empty map (nothing of its text to keep, and keys that are maps,
// {{NAME}}, which no edit can name, may come), or the result is the overlay
// alone and holds strings YAML 1.1 readers misread plain (12:30), which a
// document written whole quotes.
func writeWhole(f Format, b *parsed, fresh bool, patch *yaml.Node) bool {
	if f != YAML {
		return false
	}
	return isMap(b.root) && len(b.root.Content) == 0 || fresh && findNode(patch, ambiguousPlain) != nil
}

// overlayError is a merge the overlay cannot make, as a MergeError naming
// the place in the overlay.
func overlayError(err error) error {
	var se *smp.Error
	if errors.As(err, &se) {
		where := "top level"
		if se.Path != "" {
			where = se.Path
		}
		return &MergeError{fmt.Sprintf("the overlay's %s: %s", where, se.Msg)}
	}
	var de *schema.DeclareError
	if errors.As(err, &de) {
		return &MergeError{de.Error()}
	}
	return &MergeError{err.Error()}
}

// whole writes the merged value whole (Doc.WriteWhole): JSON as the
// overlay wrote it when that is the result; YAML under the overlay's
// document comments when nothing of the base survives (it was not a map,
// or the overlay is not one), in the indentation base and overlay show.
func whole(f Format, b, o *parsed, doc *Doc) (string, error) {
	if f == JSON {
		return doc.WriteWhole()
	}
	comments := b.doc
	if !isMap(b.root) || !isMap(o.root) {
		comments = o.doc
	}
	return doc.wholeYAML(comments, detectYAMLStyle(b.root, o.root))
}
