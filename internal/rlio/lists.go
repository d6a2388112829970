package rlio

import (
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Lists are the List resources of a standalone stream (kind List, or any
// kind ending in "List", with an items list: ConfigMapList, the way some
// operators ship their dashboards) whose items a function works on as
// resources of their own, and that are written back as Lists, in place.
//
// kustomize expands such Lists into their items before any transformer
// sees them (and writes the items out loose); kpt refuses them. Standalone,
// a function gets the items, as under kustomize, and each item goes back
// into its List, which keeps its place, comments and layout.
type Lists struct {
	docs  []*yaml.RNode // the stream's documents as read
	items []*yaml.RNode // the resources handed to the function
	// list[i] is the document (in docs) items[i] came from when it is a
	// List's item, or -1
	list []int
}

// ExpandLists returns the resources of a stream: its documents, with each
// List's items in place of the List. lists is nil when there is no List.
func ExpandLists(docs []*yaml.RNode) (items []*yaml.RNode, lists *Lists) {
	l := &Lists{docs: docs}
	expanded := false
	for d, doc := range docs {
		seq := listItems(doc)
		if seq == nil {
			l.items = append(l.items, doc)
			l.list = append(l.list, -1)
			continue
		}
		expanded = true
		for _, it := range seq.Content {
			l.items = append(l.items, yaml.NewRNode(it))
			l.list = append(l.list, d)
		}
	}
	if !expanded {
		return docs, nil
	}
	return append([]*yaml.RNode(nil), l.items...), l
}

// listItems is the items sequence of a List with at least one item that is
// a map (a resource), else nil.
func listItems(doc *yaml.RNode) *yaml.Node {
	if doc.YNode().Kind != yaml.MappingNode || !strings.HasSuffix(doc.GetKind(), "List") {
		return nil
	}
	items := doc.Field("items")
	if items == nil {
		return nil
	}
	seq := items.Value.YNode()
	if seq.Kind != yaml.SequenceNode || len(seq.Content) == 0 || slices.ContainsFunc(seq.Content, notMapping) {
		return nil
	}
	return seq
}

func notMapping(n *yaml.Node) bool { return n.Kind != yaml.MappingNode }

// Collapse puts the function's output back into the stream's Lists. An
// item stays in its List when it is the node that came from it (functions
// edit resources in place); items the function removed leave their List,
// and new ones, including a resource a function rebuilt as a new node,
// stand alone. A List is written where its first remaining item is, and one
// left with no item keeps its place after what preceded it.
func (l *Lists) Collapse(out []*yaml.RNode) []*yaml.RNode {
	c := collapse{Lists: l, written: map[int]bool{}}
	c.origins(out)
	lastInput := -1 // new items after this one come after everything read
	for j := range out {
		if c.origin[j] >= 0 {
			lastInput = j
		}
	}
	for j, it := range out {
		c.place(it, c.origin[j], j > lastInput)
	}
	c.writeEmptied(len(l.items) + 1)
	return c.result
}

// collapse is one Collapse in progress.
type collapse struct {
	*Lists
	origin  []int                // the input position of each output item, or -1
	members map[int][]*yaml.Node // List document → its items, in output order
	emptied []int                // Lists the function took every item out of
	written map[int]bool         // List documents written
	result  []*yaml.RNode
}

// origins finds where each output item came from, which List each List
// keeps, and which Lists were emptied.
func (c *collapse) origins(out []*yaml.RNode) {
	index := make(map[*yaml.Node]int, len(c.items))
	for i, it := range c.items {
		index[it.YNode()] = i
	}
	c.origin = make([]int, len(out))
	c.members = map[int][]*yaml.Node{}
	for j, it := range out {
		c.origin[j] = -1
		if i, ok := index[it.YNode()]; ok {
			c.origin[j] = i
			if d := c.list[i]; d >= 0 {
				c.members[d] = append(c.members[d], it.YNode())
			}
		}
	}
	c.emptied = c.emptiedLists()
}

// emptiedLists are the List documents whose every item the function took
// out.
func (c *collapse) emptiedLists() []int {
	var emptied []int
	for d := range c.docs {
		if listItems(c.docs[d]) != nil && len(c.members[d]) == 0 {
			emptied = append(emptied, d)
		}
	}
	return emptied
}

// place writes the output item it, which came from input position o (-1
// for a new one): in its List, which is written with its first remaining
// item, or on its own. The emptied Lists that came before it go first: for
// a new item after every item read (afterInput), all of them.
func (c *collapse) place(it *yaml.RNode, o int, afterInput bool) {
	d := -1
	if o >= 0 {
		d = c.list[o]
		c.writeEmptied(o)
	} else if afterInput {
		c.writeEmptied(len(c.items) + 1)
	}
	switch {
	case d < 0:
		c.result = append(c.result, it)
	case !c.written[d]:
		c.writeList(d, c.members[d])
	}
}

// writeEmptied writes each emptied List (with "items: []") whose first
// item came before input position before.
func (c *collapse) writeEmptied(before int) {
	for _, d := range c.emptied {
		if !c.written[d] && firstItem(c.list, d) < before {
			c.writeList(d, nil)
		}
	}
}

// writeList writes List document d, holding items.
func (c *collapse) writeList(d int, items []*yaml.Node) {
	c.docs[d].Field("items").Value.YNode().Content = items
	c.result = append(c.result, c.docs[d])
	c.written[d] = true
}

// firstItem is the position of the first item of List document d.
func firstItem(list []int, d int) int {
	for i, x := range list {
		if x == d {
			return i
		}
	}
	return len(list)
}
