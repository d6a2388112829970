package valuemerge

import (
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	yaml "go.yaml.in/yaml/v3"
)

// writer collects the edits that make a document's value another: one
// batch for the values changed, keys added, keys and list elements
// removed; and the elements appended to lists, one by one after it
// (package embedded creates one element past the end of a list at a time).
type writer struct {
	d       *Doc
	changes []embedded.Change
	appends []embedded.Change
	// gone holds, by the path of a list, the positions of the elements
	// the batch deletes from it (afterDeletes).
	gone map[string][]int
	// cursor is where the next search of an overlay list starts (find).
	cursor map[*yaml.Node]int
}

func newWriter(d *Doc) *writer {
	return &writer{d: d}
}

func (w *writer) empty() bool {
	return len(w.changes) == 0 && len(w.appends) == 0
}

func (w *writer) yaml() bool { return w.d.opts.Format == YAML }

// diff compares a (the document, as written) with b (as wanted) at path.
func (w *writer) diff(path fieldpath.Path, a, b *yaml.Node) error {
	if a.Kind == yaml.AliasNode && b.Kind == yaml.AliasNode && a.Value == b.Value {
		// Still the alias of the same anchor: what changed there is
		// written at the anchor, and the alias follows.
		return nil
	}
	alias := a.Kind == yaml.AliasNode
	a, b = yamltree.Resolve(a), yamltree.Resolve(b)
	if sameData(a, b) {
		return nil
	}
	if !alias {
		// (The value an alias stands for is written in its place, so
		// the anchor and its other aliases stay as they are.)
		if done, err := w.diffInside(path, a, b); done || err != nil {
			return err
		}
	}
	return w.replace(path, a, b)
}

// diffInside edits inside two collections of one kind; false when the
// value is to be replaced whole.
func (w *writer) diffInside(path fieldpath.Path, a, b *yaml.Node) (bool, error) {
	switch {
	case a.Kind != b.Kind:
		return false, nil
	case a.Kind == yaml.MappingNode && len(a.Content) == 0 && len(path) > 0:
		// An empty map gains entries laid out as the document lays out
		// maps, not as the overlay spelled them.
		w.changes = append(w.changes, w.laidOut(path, b, false))
		return true, w.newKeys(path, b)
	case a.Kind == yaml.MappingNode:
		return true, w.diffMap(path, a, b)
	case a.Kind == yaml.SequenceNode:
		return w.diffList(path, a, b)
	}
	return false, nil
}

// replace writes b whole at path, where a is, in a's style (replacedStyle).
func (w *writer) replace(path fieldpath.Path, a, b *yaml.Node) error {
	if len(path) == 0 {
		return ErrOtherKind
	}
	if err := w.newKeys(path, b); err != nil {
		return err
	}
	w.changes = append(w.changes, w.set(path, w.replacedStyle(a, b), false))
	return nil
}

// sameData reports whether two values are the same data (smp.Equal), or
// one number spelled two ways (00 and 0, 1.0 and 1.00): readers take them
// alike, so the text keeps its spelling.
func sameData(a, b *yaml.Node) bool {
	return smp.Equal(a, b) || sameNumber(a, b)
}

// diffMap compares two maps: changed values first, then new keys (after
// the existing ones, in the wanted order), removed keys last. A map that
// inherits entries through a << key keeps it: an inherited value
// that is still right is left to it, one that changes is set on the map
// itself, and one that goes cannot be written in place.
func (w *writer) diffMap(path fieldpath.Path, a, b *yaml.Node) error {
	own, inherited, err := entriesOf(a)
	if err != nil {
		return err
	}
	added, err := w.diffEntries(path, a, b, own, inherited)
	if err != nil {
		return err
	}
	removed, err := removedKeys(path, a, b, own, inherited)
	if err != nil {
		return err
	}
	w.changes = append(w.changes, added...)
	w.changes = append(w.changes, removed...)
	return nil
}

// diffEntries compares the values of b's keys with a's own, and returns
// the changes adding the keys a has not (or inherits with another value).
func (w *writer) diffEntries(path fieldpath.Path, a, b *yaml.Node, own, inherited map[string]*yaml.Node) ([]embedded.Change, error) {
	var added []embedded.Change
	keys := a.Content
	for i := 0; i+1 < len(b.Content); i += 2 {
		k, v := yamltree.Resolve(b.Content[i]), b.Content[i+1]
		sub := appendKey(path, k.Value)
		if av := own[k.Value]; av != nil {
			if err := w.diff(sub, av, v); err != nil {
				return nil, err
			}
			continue
		}
		if iv := inherited[k.Value]; iv != nil && sameData(yamltree.Resolve(iv), yamltree.Resolve(v)) {
			continue
		}
		if err := w.newKey(path, k); err != nil {
			return nil, err
		}
		if err := w.newKeys(sub, v); err != nil {
			return nil, err
		}
		added = append(added, w.set(sub, yamltree.Resolve(v), true))
		keys = append(keys[:len(keys):len(keys)], k, v)
	}
	return added, w.sameKeys(path, keys, len(added))
}

// removedKeys is the changes deleting a's own keys that b has not; an
// inherited one that b has not cannot be deleted in place.
func removedKeys(path fieldpath.Path, a, b *yaml.Node, own, inherited map[string]*yaml.Node) ([]embedded.Change, error) {
	for k := range inherited {
		if yamltree.Lookup(b, k) == nil && own[k] == nil {
			return nil, fmt.Errorf("%w: %s loses %q, which it inherits through a << key", ErrNotInPlace, where(path), k)
		}
	}
	var removed []embedded.Change
	for i := 0; i+1 < len(a.Content); i += 2 {
		k := yamltree.Resolve(a.Content[i])
		if !inherit.IsKey(k) && yamltree.Lookup(b, k.Value) == nil {
			removed = append(removed, embedded.Change{Path: appendKey(path, k.Value), Delete: true})
		}
	}
	return removed, nil
}

// entriesOf is a map's own values by key and, when it has << keys,
// the values it inherits through them (those its own keys do not shadow).
func entriesOf(m *yaml.Node) (own, inherited map[string]*yaml.Node, err error) {
	own = make(map[string]*yaml.Node, len(m.Content)/2)
	merges := false
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := yamltree.Resolve(m.Content[i])
		if inherit.IsKey(k) {
			merges = true
			continue
		}
		own[k.Value] = m.Content[i+1]
	}
	if !merges {
		return own, nil, nil
	}
	flat, err := inherit.Expand(m, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrNotInPlace, err)
	}
	inherited = map[string]*yaml.Node{}
	for i := 0; i+1 < len(flat.Content); i += 2 {
		if k := flat.Content[i].Value; own[k] == nil {
			inherited[k] = flat.Content[i+1]
		}
	}
	return own, inherited, nil
}

// sameKeys refuses, in YAML, keys the change adds that readers take for a
// key the map has (true and True): written so, one would shadow the other.
func (w *writer) sameKeys(path fieldpath.Path, keys []*yaml.Node, added int) error {
	if !w.yaml() || added == 0 {
		return nil
	}
	var err error
	scalar.ResolvedDuplicates(keys, func(i, j int) {
		if err == nil {
			err = &MergeError{fmt.Sprintf("%s: %s adds the key %q, which YAML readers take for the key %q the document has (write it as the document does)",
				where(path), w.d.opts.who(), yamltree.Resolve(keys[j]).Value, yamltree.Resolve(keys[i]).Value)}
		}
	})
	return err
}

// newKey refuses a key to be written that readers take for other text
// (keyText): written as that text, it would no longer match its own
// spelling on the next run; written as it is, it would mean something
// else.
func (w *writer) newKey(path fieldpath.Path, k *yaml.Node) error {
	if text := keyText(k); text != k.Value {
		return &MergeError{fmt.Sprintf("%s: %s adds the key %q, which YAML readers take for %q; quote it in %[2]s as the document should have it",
			where(path), w.d.opts.who(), k.Value, text)}
	}
	return nil
}

// newKeys is newKey for every key of a value to be written.
func (w *writer) newKeys(path fieldpath.Path, v *yaml.Node) error {
	v = yamltree.Resolve(v)
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			k := yamltree.Resolve(v.Content[i])
			if err := w.newKey(path, k); err != nil {
				return err
			}
			if err := w.newKeys(appendKey(path, k.Value), v.Content[i+1]); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, e := range v.Content {
			if err := w.newKeys(appendIndex(path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyText is the string Kubernetes tools make of a key: its text, or for a
// key that reads as a number, a boolean or null, the JSON of that value
// (0x1F is "31", ~ is "null"). Package embedded writes a new key as the
// string it is given, so a key whose text differs is refused.
func keyText(k *yaml.Node) string {
	if scalar.StringForAll(k) {
		return k.Value
	}
	if k.Kind != yaml.ScalarNode {
		return k.Value
	}
	return scalar.JSONKey(k)
}

// where names a place of the document in messages.
func where(path fieldpath.Path) string {
	if len(path) == 0 {
		return "the top of the document"
	}
	return path.String()
}

// set is the change writing v at path: as the overlay spelled it when it
// holds this very value there on one line (JSON), else v laid out as the
// document lays out its values.
func (w *writer) set(path fieldpath.Path, v *yaml.Node, create bool) embedded.Change {
	if text, ok := w.overlayText(path, v); ok {
		return embedded.Change{Path: path, Create: create, Text: text}
	}
	return w.laidOut(path, v, create)
}

// laidOut is the change writing v at path laid out as the document lays
// out its values.
func (w *writer) laidOut(path fieldpath.Path, v *yaml.Node, create bool) embedded.Change {
	v = canonical(v)
	return embedded.Change{Path: path, Create: create, Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }}
}

// overlayText is the overlay's own one-line text for v at path, where the
// overlay holds v there: at the same keys, and in lists at the element
// that holds it (a merged list's elements sit elsewhere in the overlay).
func (w *writer) overlayText(path fieldpath.Path, v *yaml.Node) (string, bool) {
	o := w.d.opts.Overlay
	if o == nil || w.yaml() {
		return "", false
	}
	at, ok := w.find(o.Root, path, nil, v)
	if !ok {
		return "", false
	}
	texts, err := embedded.GetText(o.Text, at, w.d.opts.Edit)
	if err != nil || len(texts) != 1 || strings.Contains(texts[0], "\n") {
		return "", false
	}
	return texts[0], true
}

// find is the path in the overlay, below n, of the value v that path leads
// to in the result: map keys followed as they are, list elements searched
// from where the last search of that list stopped (elements are written in
// the overlay's order, so each is looked at about once).
func (w *writer) find(n *yaml.Node, path fieldpath.Path, at fieldpath.Path, v *yaml.Node) (fieldpath.Path, bool) {
	n = yamltree.Resolve(n)
	switch {
	case n == nil:
		return nil, false
	case len(path) == 0:
		return at, smp.Equal(n, v)
	case path[0].Kind == fieldpath.Field && n.Kind == yaml.MappingNode:
		return w.find(yamltree.Lookup(n, path[0].Key), path[1:], appendKey(at, path[0].Key), v)
	case path[0].Kind != fieldpath.Index || n.Kind != yaml.SequenceNode:
		return nil, false
	}
	return w.findElement(n, path[1:], at, v)
}

// findElement is find below an element of list n, the rest of the path
// after it, searched from where the last search of n stopped.
func (w *writer) findElement(n *yaml.Node, rest fieldpath.Path, at fieldpath.Path, v *yaml.Node) (fieldpath.Path, bool) {
	if w.cursor == nil {
		w.cursor = map[*yaml.Node]int{}
	}
	from := w.cursor[n]
	for k := range n.Content {
		j := (from + k) % len(n.Content)
		if found, ok := w.find(n.Content[j], rest, appendIndex(at, j), v); ok {
			w.cursor[n] = j + 1
			return found, true
		}
	}
	return nil, false
}

func appendKey(path fieldpath.Path, key string) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Field, Key: key})
}
