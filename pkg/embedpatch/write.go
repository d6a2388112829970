package embedpatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/patchwork-krm/patchwork/pkg/smp"
	"reflect"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/pkg/embedded"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// write turns the document's new value, want, into edits of text, whose
// value is old: one batch for the values changed, keys added and keys
// removed, then the elements appended to lists, one by one (package
// embedded creates one element past the end of a list at a time). The
// result must read back as want.
func write(text string, old, want *yaml.Node, eo embedded.Options, format embedded.Format) (string, error) {
	d := differ{yaml: format == embedded.YAML}
	if err := d.diff(nil, old, want); err != nil {
		return "", err
	}
	if len(d.changes) == 0 && len(d.appends) == 0 {
		return text, nil
	}
	eo.GivenType, eo.GivenStyle = true, true
	out, err := embedded.Edit(text, eo, d.changes...)
	if err != nil {
		return "", err
	}
	for _, c := range d.appends {
		if out, err = embedded.Edit(out, eo, c); err != nil {
			return "", err
		}
	}
	if err := check(out, want, eo); err != nil {
		return "", err
	}
	return out, nil
}

// differ collects the edits that make a document's value another.
type differ struct {
	changes []embedded.Change
	appends []embedded.Change
	// yaml says the document is YAML, whose readers take keys spelled
	// differently (0 and 000, true and True) for one key.
	yaml bool
}

// diff compares a (the document, as written) with b (as wanted) at path.
func (d *differ) diff(path fieldpath.Path, a, b *yaml.Node) error {
	if a.Kind == yaml.AliasNode && b.Kind == yaml.AliasNode && a.Value == b.Value {
		// Still the alias of the same anchor: what changed there is
		// written at the anchor, and the alias follows.
		return nil
	}
	alias := a.Kind == yaml.AliasNode
	a, b = resolve(a), resolve(b)
	if smp.Equal(a, b) || sameNumber(a, b) { // the same data: nothing to write
		return nil
	}
	switch {
	case alias:
		// The value an alias stands for is written in its place, so
		// the anchor (and its other aliases) stay as they are.
	case a.Kind == yaml.MappingNode && b.Kind == yaml.MappingNode:
		return d.diffMap(path, a, b)
	case a.Kind == yaml.SequenceNode && b.Kind == yaml.SequenceNode && len(b.Content) >= len(a.Content):
		for i := range a.Content {
			if err := d.diff(appendIndex(path, i), a.Content[i], b.Content[i]); err != nil {
				return err
			}
		}
		for i := len(a.Content); i < len(b.Content); i++ {
			if err := newKeys(appendIndex(path, i), b.Content[i]); err != nil {
				return err
			}
			d.appends = append(d.appends, set(appendIndex(path, i), b.Content[i], true))
		}
		return nil
	}
	if len(path) == 0 {
		return &Error{Msg: "the patch replaces the whole document with another kind of value; patch the field holding the string instead"}
	}
	if err := newKeys(path, b); err != nil {
		return err
	}
	d.changes = append(d.changes, set(path, b, false))
	return nil
}

// newKey refuses a key the patch writes that readers take for other text
// (keyText): written as that text, it would no longer match the patch's
// own key on the next run; written as it is, it would mean something else.
func newKey(path fieldpath.Path, k *yaml.Node) error {
	if text := keyText(k); text != k.Value {
		return &Error{Msg: fmt.Sprintf("%s: the patch adds the key %q, which YAML readers take for %q; quote it in the patch as the document should have it",
			where(path), k.Value, text)}
	}
	return nil
}

// newKeys is newKey for every key of a value the patch writes.
func newKeys(path fieldpath.Path, v *yaml.Node) error {
	v = resolve(v)
	switch v.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(v.Content); i += 2 {
			k := resolve(v.Content[i])
			if err := newKey(path, k); err != nil {
				return err
			}
			if err := newKeys(appendKey(path, k.Value), v.Content[i+1]); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, e := range v.Content {
			if err := newKeys(appendIndex(path, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

// diffMap compares two maps: changed values first, then new keys (after
// the existing ones, as the patch ordered them), removed keys last — the
// order package valuemerge writes a merge in.
func (d *differ) diffMap(path fieldpath.Path, a, b *yaml.Node) error {
	var added, removed []embedded.Change
	keys := a.Content
	for i := 0; i+1 < len(b.Content); i += 2 {
		k := resolve(b.Content[i])
		sub := appendKey(path, k.Value)
		if av := lookup(a, k.Value); av != nil {
			if err := d.diff(sub, av, b.Content[i+1]); err != nil {
				return err
			}
			continue
		}
		if err := newKey(path, k); err != nil {
			return err
		}
		if err := newKeys(sub, b.Content[i+1]); err != nil {
			return err
		}
		added = append(added, set(sub, resolve(b.Content[i+1]), true))
		keys = append(keys[:len(keys):len(keys)], k, b.Content[i+1])
	}
	if d.yaml && len(added) > 0 {
		var err error
		scalar.ResolvedDuplicates(keys, func(i, j int) {
			if err == nil {
				err = &Error{Msg: fmt.Sprintf("%s: the patch adds the key %q, which YAML readers take for the key %q the document has (write it as the document does)",
					where(path), resolve(keys[j]).Value, resolve(keys[i]).Value)}
			}
		})
		if err != nil {
			return err
		}
	}
	for i := 0; i+1 < len(a.Content); i += 2 {
		k := resolve(a.Content[i]).Value
		if lookup(b, k) == nil {
			removed = append(removed, embedded.Change{Path: appendKey(path, k), Delete: true})
		}
	}
	d.changes = append(d.changes, added...)
	d.changes = append(d.changes, removed...)
	return nil
}

// keyText is the string Kubernetes tools make of a key: its text, or for a
// key that reads as a number, a boolean or null, the JSON of that value
// (0x1F is "31", ~ is "null"). Package embedded writes a new key as the
// string it is given, so a key whose text differs is refused (diffMap).
func keyText(k *yaml.Node) string {
	if scalar.StringForAll(k) {
		return k.Value
	}
	if forms := scalar.KeyForms(k); len(forms) > 1 {
		return strings.TrimPrefix(forms[1], "v3\x00")
	}
	return k.Value
}

// where names a place of the document in messages.
func where(path fieldpath.Path) string {
	if len(path) == 0 {
		return "the top of the document"
	}
	return path.String()
}

// set is the change writing v at path.
func set(path fieldpath.Path, v *yaml.Node, create bool) embedded.Change {
	v = canonical(v)
	return embedded.Change{Path: path, Create: create, Set: func(*yaml.Node) (*yaml.Node, error) { return v, nil }}
}

// canonical copies a value with its numbers, booleans and nulls spelled
// as JSON spells them: YAML reads 000, 0x1F, 1_000, True and ~ as a number,
// a boolean or null, but package embedded keeps a given type only for text
// that reads as that type everywhere, and would write "000" as a string.
// The value stays the same; its spelling is the plain one.
func canonical(n *yaml.Node) *yaml.Node {
	c := *n
	if n.Kind == yaml.ScalarNode {
		c.Value = canonicalScalar(n)
		return &c
	}
	if len(n.Content) > 0 {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				c.Content[i] = k // a key is its text, whatever it reads as
				continue
			}
			c.Content[i] = canonical(k)
		}
	}
	return &c
}

func canonicalScalar(n *yaml.Node) string {
	switch n.ShortTag() {
	case "!!null":
		return "null"
	case "!!bool":
		if b, err := strconv.ParseBool(n.Value); err == nil {
			return strconv.FormatBool(b)
		}
	case "!!int", "!!float":
		if json.Valid([]byte(n.Value)) {
			return n.Value
		}
		if b, err := yamljson.Encode(n); err == nil && json.Valid(b) && b[0] != '"' {
			return string(b)
		}
	}
	return n.Value
}

func appendKey(path fieldpath.Path, key string) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Field, Key: key})
}

func appendIndex(path fieldpath.Path, i int) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(path)+1)
	return append(append(out, path...), fieldpath.Segment{Kind: fieldpath.Index, Index: i, Key: strconv.Itoa(i)})
}

const maxAliasChain = 32

func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < maxAliasChain; i++ {
		n = n.Alias
	}
	return n
}

// lookup is the value of key k in map m, nil when absent.
func lookup(m *yaml.Node, k string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if resolve(m.Content[i]).Value == k {
			return m.Content[i+1]
		}
	}
	return nil
}

// check reads the result back and compares it with the value wanted, as
// JSON data: an edit that wrote something else is a bug here, reported
// rather than written (without the values: they may be secret).
func check(out string, want *yaml.Node, eo embedded.Options) error {
	eo.GivenType, eo.GivenStyle = false, false
	got, err := embedded.Get(out, nil, eo)
	if err != nil {
		return fmt.Errorf("internal error patching the string (please report): the result does not parse: %v", err)
	}
	a, err1 := decode(got[0])
	b, err2 := decode(want)
	if err1 != nil || err2 != nil || !reflect.DeepEqual(a, b) {
		return fmt.Errorf("internal error patching the string (please report): the result does not mean what the patch means")
	}
	return nil
}

// decode is what a value means to the tools that turn YAML into JSON, as
// Kubernetes tools do: map keys as yaml.v3 resolves them (~ is "null",
// 0x1F is "31"), scalars as their JSON values.
func decode(n *yaml.Node) (any, error) {
	n = resolve(n)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return decode(n.Content[0])
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := decode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[keyText(resolve(n.Content[i]))] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := decode(c)
			if err != nil {
				return nil, err
			}
			l[i] = v
		}
		return l, nil
	}
	b, err := yamljson.Encode(n)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err = dec.Decode(&v)
	return v, err
}

// sameNumber reports whether two scalars are one number spelled two ways
// (00 and 0, 1.0 and 1.00): readers take them alike, so a patch writing
// one over the other changes nothing, and the text keeps its spelling.
func sameNumber(a, b *yaml.Node) bool {
	if a.Kind != yaml.ScalarNode || b.Kind != yaml.ScalarNode || a.ShortTag() != b.ShortTag() {
		return false
	}
	switch a.ShortTag() {
	case yaml.NodeTagInt, yaml.NodeTagFloat:
	default:
		return false
	}
	var x, y any
	if a.Decode(&x) != nil || b.Decode(&y) != nil {
		return false
	}
	return x == y
}
