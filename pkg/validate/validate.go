package validate

import (
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/treediff"
)

// Check names what a finding is about.
type Check uint8

const (
	// Type is a value of another type than the schema's.
	Type Check = iota
	// Format is a value its format does not allow (int32 bounds, a
	// quantity, base64, a time).
	Format
	// Enum is a value not among those allowed.
	Enum
	// Pattern is a string its pattern does not match.
	Pattern
	// Bounds is a number, length or number of elements out of bounds.
	Bounds
	// Required is a required field missing, or removed.
	Required
	// Unknown is a field the schema does not know, where it does not keep
	// unknown fields.
	Unknown
)

var checkNames = [...]string{"type", "format", "enum", "pattern", "bounds", "required", "unknown field"}

func (c Check) String() string { return checkNames[c] }

// Finding is one place whose new value the schema does not allow.
type Finding struct {
	Check Check
	// Where is the place, in the words of messages (treediff's Where).
	Where string
	// Want says what the schema wants there, Got what the place holds.
	Want, Got string
}

func (f Finding) String() string { return fmt.Sprintf("the schema wants %s, got %s", f.Want, f.Got) }

// Options tune a check.
type Options struct {
	// Secret keeps the values out of the findings (a Secret's).
	Secret bool
	// SkipUnknown leaves unknown fields to whoever reported them already
	// (the typo check of a patch).
	SkipUnknown bool
}

// Changes checks the changes (treediff.Diff) of a resource, res as it is
// now, whose rule is root (schema.Schema.Rule; nil: nothing is checked).
// Changes inside documents held in strings are not checked: no schema says
// what they hold.
func Changes(root *schema.Rule, res *yaml.Node, changes []treediff.Change, o Options) []Finding {
	if root == nil {
		return nil
	}
	c := checker{o: o, res: res}
	for _, ch := range changes {
		if ch.Doc == 0 && c.visits <= treediff.MaxNodes {
			c.change(root, ch)
		}
	}
	return c.out
}

// checker is one Changes.
type checker struct {
	o      Options
	res    *yaml.Node
	out    []Finding
	visits int
	// lists holds the lists whose number of elements is checked already.
	lists map[string]bool
}

func (c *checker) report(check Check, where, want, got string) {
	c.out = append(c.out, Finding{Check: check, Where: where, Want: want, Got: got})
}

// change checks one change: the value added or changed, a list that
// gained or lost elements, an object that lost a required field.
func (c *checker) change(root *schema.Rule, ch treediff.Change) {
	parent, r, unknownAt := ruleAt(root, ch.Path)
	last := len(ch.Path) - 1
	switch {
	case unknownAt < 0:
	case unknownAt == last && ch.Op == treediff.Added && !c.o.SkipUnknown:
		c.unknown(parent, ch.Path[last].Key, ch.Where())
		return
	default:
		return // inside a field that was unknown before: nothing to say
	}
	elem := last >= 0 && ch.Path[last].Kind == fieldpath.Index
	switch ch.Op {
	case treediff.Removed:
		c.removed(parent, ch, elem)
	case treediff.Added:
		c.value(r, ch.New, ch.Where(), true)
		if elem {
			c.listBounds(parent, ch)
		}
	default:
		deep := ch.Old.Kind != ch.New.Kind || ch.New.Kind == yaml.SequenceNode
		c.value(r, ch.New, ch.Where(), deep)
	}
}

// ruleAt walks the rules along path: the rule of the place's parent and of
// the place, and the first segment that names a field the schema does not
// know (-1: none).
func ruleAt(root *schema.Rule, path fieldpath.Path) (parent, r *schema.Rule, unknownAt int) {
	r = root
	for i, seg := range path {
		parent = r
		if seg.Kind == fieldpath.Index {
			r = r.Element()
			continue
		}
		next, ok := r.Field(seg.Key)
		if !ok {
			return parent, nil, i
		}
		r = next
	}
	return parent, r, -1
}

// removed checks what a removal leaves: an object without a required
// field, a list with too few elements.
func (c *checker) removed(parent *schema.Rule, ch treediff.Change, elem bool) {
	if elem {
		c.listBounds(parent, ch)
		return
	}
	if parent == nil || len(ch.Path) == 0 {
		return
	}
	key := ch.Path[len(ch.Path)-1].Key
	for _, req := range parent.Required {
		if req == key {
			c.report(Required, ch.Where(), "the required field "+key, "it removed")
		}
	}
}

// listBounds checks, once, the number of elements of the list an element
// was added to or removed from.
func (c *checker) listBounds(list *schema.Rule, ch treediff.Change) {
	if list == nil || list.MinItems == nil && list.MaxItems == nil {
		return
	}
	where := ch.Parent()
	if c.lists == nil {
		c.lists = map[string]bool{}
	}
	if c.lists[where] {
		return
	}
	c.lists[where] = true
	if n := nodeAt(c.res, ch.Path[:len(ch.Path)-1]); n != nil && n.Kind == yaml.SequenceNode {
		c.count(list, len(n.Content), where)
	}
}

// nodeAt is the node path leads to in n (positions for list elements),
// nil when it leads nowhere.
func nodeAt(n *yaml.Node, path fieldpath.Path) *yaml.Node {
	for _, seg := range path {
		n = yamltree.Resolve(n)
		switch {
		case n == nil:
			return nil
		case seg.Kind == fieldpath.Index && n.Kind == yaml.SequenceNode && seg.Index < len(n.Content):
			n = n.Content[seg.Index]
		case seg.Kind == fieldpath.Field:
			n = yamltree.Lookup(n, seg.Key)
		default:
			return nil
		}
	}
	return yamltree.Resolve(n)
}
