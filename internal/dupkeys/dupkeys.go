package dupkeys

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/scalar"
)

// Duplicate is a key a map gives twice: spelled alike, or spelled
// differently and resolved alike by readers. Lines are counted from the
// first line of the node Find was given (1 for its own line).
type Duplicate struct {
	// Path is the field path of the map, "" for the top level
	// (spec.containers.0.env, with dots in keys escaped).
	Path string
	// Key is the second key; Other the first's spelling (the same, or
	// True beside true).
	Key, Other   string
	Line1, Line2 int
}

// Find reports every key given twice in the maps of a document: YAML
// forbids it and kustomize refuses it, but yaml.v3 parses it into nodes,
// and an edit would land on the first key while every reader sees the
// second. Keys are compared by what readers resolve them to, not only by
// spelling (package scalar): true and True, 80 and 0x50, ~ and null, 1 and
// 1.0 are one key. The << key may repeat.
//
// One walk over the nodes; aliases are not followed (their anchors are
// walked where they stand), so the cost is linear in the input.
func Find(root *yaml.Node) []Duplicate {
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	w := dupWalker{first: root.Line}
	w.walk(root)
	return w.found
}

// Message says what is wrong with a duplicate and what to do, naming the
// map and both lines "of the resource".
func (d Duplicate) Message() string { return d.MessageOf("the resource") }

// MessageOf is Message for a duplicate in what the lines count in: "the
// resource", "the patch".
func (d Duplicate) MessageOf(what string) string {
	where := "at the top level"
	if d.Path != "" {
		where = "in " + d.Path
	}
	lines := fmt.Sprintf("lines %d and %d of %s", d.Line1, d.Line2, what)
	if d.Line1 == d.Line2 {
		lines = fmt.Sprintf("both on line %d of %s", d.Line1, what)
	}
	if d.Other != d.Key {
		return fmt.Sprintf("the keys %q and %q %s (%s) are one key to YAML readers, which resolve both to the same value "+
			"and keep only the last; kustomize refuses it, and an edit would change the first while readers see the second: remove one, or quote both to make them strings",
			d.Other, d.Key, where, lines)
	}
	return fmt.Sprintf("the key %q is given twice %s (%s); YAML does not allow it, kustomize refuses it, and readers disagree on which value counts: remove one",
		d.Key, where, lines)
}

// MessageHidingKeys is MessageOf for a document whose keys are secret (one
// held in a Secret): the lines, not the keys nor the map's path.
func (d Duplicate) MessageHidingKeys(what string) string {
	lines := fmt.Sprintf("lines %d and %d of %s", d.Line1, d.Line2, what)
	if d.Line1 == d.Line2 {
		lines = fmt.Sprintf("both on line %d of %s", d.Line1, what)
	}
	return fmt.Sprintf("a map gives one key twice (%s; the keys are not shown: the text is secret); "+
		"readers disagree on which value counts and an edit would change the first: remove one", lines)
}

// dupWalker finds repeated keys. The path to the map being walked is kept
// as a stack of segments and only turned into text for a duplicate.
type dupWalker struct {
	first int
	stack []dupSeg
	found []Duplicate
	seen  map[string]int // reused for large maps
}

type dupSeg struct {
	key   string
	index int // -1 for a key
}

// smallMap is the size up to which keys are compared pairwise rather than
// through a map: most maps in resources are small.
const smallMap = 12

func (w *dupWalker) walk(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		w.mapping(n.Content)
	case yaml.SequenceNode:
		for i, v := range n.Content {
			w.into(dupSeg{index: i}, v)
		}
	}
}

// into walks a child map or list, with seg on the path.
func (w *dupWalker) into(seg dupSeg, v *yaml.Node) {
	if v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode {
		w.stack = append(w.stack, seg)
		w.walk(v)
		w.stack = w.stack[:len(w.stack)-1]
	}
}

// mapping reports the keys of a map given twice: spelled alike, or
// spelled differently but resolved alike by readers (true, True; 80,
// 0x50; ~, null; 1, 1.0); then walks its values.
func (w *dupWalker) mapping(c []*yaml.Node) {
	w.keys(c)
	for i := 0; i+1 < len(c); i += 2 {
		w.into(dupSeg{key: c[i].Value, index: -1}, c[i+1])
	}
}

// keys reports the keys of one map's content given twice.
func (w *dupWalker) keys(c []*yaml.Node) {
	if len(c)/2 <= smallMap {
		w.samePairwise(c)
	} else {
		w.sameIndexed(c)
	}
	scalar.ResolvedDuplicates(c, func(i, j int) {
		if plainKey(c[i]) && plainKey(c[j]) {
			w.report(c[i], c[j])
		}
	})
}

// Checker tells whether one map gives a key twice, by Find's rule, for a
// caller that walks the tree anyway (the runner checks every item while
// taking it in, and calls Find only for an item where a map does). A
// Checker is for one goroutine; its zero value is ready.
type Checker struct{ w dupWalker }

// Map reports whether the mapping node m gives a key twice.
func (c *Checker) Map(m *yaml.Node) bool {
	c.w.found = c.w.found[:0]
	c.w.keys(m.Content)
	return len(c.w.found) > 0
}

// samePairwise finds keys spelled alike by comparing each with those before.
func (w *dupWalker) samePairwise(c []*yaml.Node) {
	for i := 0; i+1 < len(c); i += 2 {
		if !plainKey(c[i]) {
			continue
		}
		for j := 0; j < i; j += 2 {
			if plainKey(c[j]) && c[j].Value == c[i].Value {
				w.report(c[j], c[i])
				break
			}
		}
	}
}

// sameIndexed finds keys spelled alike through an index of the keys.
func (w *dupWalker) sameIndexed(c []*yaml.Node) {
	if w.seen == nil {
		w.seen = map[string]int{}
	}
	clear(w.seen)
	for i := 0; i+1 < len(c); i += 2 {
		if !plainKey(c[i]) {
			continue
		}
		if j, ok := w.seen[c[i].Value]; ok {
			w.report(c[j], c[i])
			continue
		}
		w.seen[c[i].Value] = i
	}
}

// plainKey reports whether a key takes part in the check: a scalar other
// than the << key, which YAML 1.1 lets a map repeat.
func plainKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && !(k.Value == "<<" && k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0)
}

func (w *dupWalker) report(first, second *yaml.Node) {
	w.found = append(w.found, Duplicate{Path: w.path(), Key: second.Value, Other: first.Value,
		Line1: first.Line - w.first + 1, Line2: second.Line - w.first + 1})
}

// path writes the stack as a field path: spec.template.metadata.annotations,
// spec.containers.0.env, with dots in keys escaped.
func (w *dupWalker) path() string {
	var b strings.Builder
	for i, s := range w.stack {
		if i > 0 {
			b.WriteByte('.')
		}
		if s.index >= 0 {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(strings.ReplaceAll(s.key, ".", `\.`))
		}
	}
	return b.String()
}
