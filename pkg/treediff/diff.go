package treediff

import (
	"errors"
	"strconv"
	"sync"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// Op says what happened at a place.
type Op uint8

const (
	// Changed is a scalar's new value, or a value of another kind (a map
	// that became a list); a list of scalars that is not a set changes
	// as a whole.
	Changed Op = iota
	// Added is a key or list element that was not there.
	Added
	// Removed is a key or list element that is there no more.
	Removed
)

func (o Op) String() string {
	switch o {
	case Added:
		return "added"
	case Removed:
		return "removed"
	}
	return "changed"
}

// Change is what happened at one place.
type Change struct {
	Op Op
	// Path leads to the place: keys by name, list elements by position (in
	// the new list; in the old one for an element removed).
	Path fieldpath.Path
	// Old and New are the value before and after (aliases followed); Old
	// is nil for Added, New for Removed.
	Old, New *yaml.Node
	// Doc, when above 0, says the place is inside a document held in a
	// string: Path[:Doc] leads to the string, the rest into the document.
	Doc int
	// labels are the segments of Path in the words of messages.
	labels []string
}

// Where is the path in the words of messages: fields joined by dots,
// keys holding dots or brackets in brackets, list elements by their merge
// keys or name ([name=app]) or position ([2]):
// spec.template.spec.containers[name=app].image.
func (c Change) Where() string { return join(c.labels) }

// Parent is Where of the place's parent: the map or list it is in.
func (c Change) Parent() string {
	if len(c.labels) == 0 {
		return ""
	}
	return join(c.labels[:len(c.labels)-1])
}

// WhereTo is Where of the place Path[:n] leads to.
func (c Change) WhereTo(n int) string { return join(c.labels[:n]) }

// Inside splits Where for a change inside a document held in a string:
// the path to the string and the path in the document ("" for the whole
// document). For any other change, inside is "".
func (c Change) Inside() (str, inside string) {
	if c.Doc == 0 {
		return c.Where(), ""
	}
	return join(c.labels[:c.Doc]), join(c.labels[c.Doc:])
}

// Options tune a Diff.
type Options struct {
	// Origin gives, for a node of the new tree, the node of the old tree
	// it is (Copy.Origin); nil: a node is itself.
	Origin func(*yaml.Node) *yaml.Node
	// Type is the old tree's schema (merge keys align list elements); nil:
	// none known.
	Type *schema.Type
	// Document says whether a changed string, at the old and the new node,
	// holds a JSON or YAML document to compare inside (one a patch went
	// into), and the document's schema (nil: none known); nil: no string
	// does.
	Document func(old, new *yaml.Node) (*schema.Type, bool)
}

// MaxNodes bounds the nodes one Diff or Snapshot visits.
const MaxNodes = 1 << 20

// ErrTooLarge is the error of a tree too large to compare.
var ErrTooLarge = errors.New("the resource is too large to compare (more than 1,048,576 YAML nodes, aliases expanded)")

// Diff lists what changed from old to new, in the order of the new tree
// (removed places where they were).
func Diff(old, new *yaml.Node, o Options) ([]Change, error) {
	way := ways.Get().(*[]step)
	d := differ{o: o, at: (*way)[:0]}
	d.node(old, new, o.Type)
	clear(d.at[:cap(d.at)]) // keep no node of this tree alive
	*way = d.at[:0]
	ways.Put(way)
	if d.visits > MaxNodes {
		return nil, ErrTooLarge
	}
	return d.out, nil
}

// ways are the differs' stacks, reused: one Diff after the other (a step
// for each resource an entry patched) would grow a new one each time.
var ways = sync.Pool{New: func() any { return new([]step) }}

// differ is one Diff.
type differ struct {
	o      Options
	out    []Change
	visits int
	doc    int // the depth of the string the walk went into, or 0
	// at is the way from the root to the place compared: a stack that is
	// made a Path and words only for a change, so that the places that
	// did not change cost no allocation.
	at []step
}

// step is one step of the way: a map key, or a list element (its node,
// position and list's merge keys, for its words).
type step struct {
	key   string
	elem  bool
	index int
	node  *yaml.Node
	keys  []string
}

func (d *differ) pushKey(key string) { d.at = append(d.at, step{key: key}) }

func (d *differ) pushElem(el *yaml.Node, i int, keys []string) {
	d.at = append(d.at, step{elem: true, index: i, node: el, keys: keys})
}

func (d *differ) pop() { d.at = d.at[:len(d.at)-1] }

// node compares old with new at the current place.
func (d *differ) node(old, new *yaml.Node, t *schema.Type) {
	if d.visits++; d.visits > MaxNodes {
		return
	}
	old, new = yamltree.Resolve(old), yamltree.Resolve(new)
	switch {
	case old == nil && new == nil:
	case old == nil:
		d.add(Added, nil, new)
	case new == nil:
		d.add(Removed, old, nil)
	case old.Kind != new.Kind:
		d.add(Changed, old, new)
	case old.Kind == yaml.MappingNode:
		d.mapping(old, new, t)
	case old.Kind == yaml.SequenceNode:
		d.list(old, new, t)
	case !smp.Equal(old, new):
		d.scalar(old, new)
	}
}

// add records a change at the current place.
func (d *differ) add(op Op, old, new *yaml.Node) {
	path := make(fieldpath.Path, len(d.at))
	labels := make([]string, len(d.at))
	for i, s := range d.at {
		if s.elem {
			path[i] = fieldpath.Segment{Kind: fieldpath.Index, Index: s.index, Key: strconv.Itoa(s.index)}
			labels[i] = elementLabel(s.node, s.index, s.keys)
			continue
		}
		path[i], labels[i] = fieldpath.Segment{Kind: fieldpath.Field, Key: s.key}, keyLabel(s.key)
	}
	d.out = append(d.out, Change{Op: op, Path: path, Old: old, New: new, Doc: d.doc, labels: labels})
}

// scalar reports a changed scalar, or what changed inside the document it
// holds.
func (d *differ) scalar(old, new *yaml.Node) {
	if d.doc == 0 && d.o.Document != nil {
		// Only a string the entry edited as a document is read as one:
		// reading every changed scalar was a fifth of a patch run's memory.
		if t, doc := d.o.Document(old, new); doc {
			if a, b, ok := documents(old.Value, new.Value); ok {
				d.doc = len(d.at)
				d.node(a, b, t)
				d.doc = 0
				return
			}
		}
	}
	d.add(Changed, old, new)
}

// documents reads the two texts of a string that holds a document; false
// when either is not one JSON or YAML document.
func documents(old, new string) (*yaml.Node, *yaml.Node, bool) {
	a, err := yamlstream.Split([]byte(old))
	if err != nil || len(a) > 1 {
		return nil, nil, false
	}
	b, err := yamlstream.Split([]byte(new))
	if err != nil || len(b) > 1 {
		return nil, nil, false
	}
	return first(a), first(b), true
}

func first(docs []*yaml.Node) *yaml.Node {
	if len(docs) == 0 {
		return nil
	}
	return docs[0]
}

// mapping compares two maps key by key; key order does not matter.
func (d *differ) mapping(old, new *yaml.Node, t *schema.Type) {
	inOld, inNew := lookup(old), lookup(new)
	for i := 0; i+1 < len(new.Content); i += 2 {
		key := yamltree.Resolve(new.Content[i]).Value
		d.pushKey(key)
		d.node(inOld.get(key), new.Content[i+1], t.Field(key))
		d.pop()
	}
	for i := 0; i+1 < len(old.Content); i += 2 {
		key := yamltree.Resolve(old.Content[i]).Value
		if inNew.get(key) == nil {
			d.pushKey(key)
			d.add(Removed, yamltree.Resolve(old.Content[i+1]), nil)
			d.pop()
		}
	}
}

// lookup finds the values of map m by key (the first of repeated keys, as
// yamltree.Lookup): through an index for a large map, where looking up
// every key of another would take the square of its size.
func lookup(m *yaml.Node) index {
	const small = 16
	if len(m.Content) <= 2*small {
		return index{m: m}
	}
	at := make(map[string]*yaml.Node, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		key := yamltree.Resolve(m.Content[i]).Value
		if _, seen := at[key]; !seen {
			at[key] = m.Content[i+1]
		}
	}
	return index{at: at}
}

// index is a map's values by key: looked up in the map itself, or in at.
type index struct {
	m  *yaml.Node
	at map[string]*yaml.Node
}

func (x index) get(key string) *yaml.Node {
	if x.at != nil {
		return x.at[key]
	}
	return yamltree.Lookup(x.m, key)
}
