package valuemerge

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/scalar"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// YAML is merged as data and written as edits of the base text through
// package embedded, as JSON is: the walk over the base and overlay values
// yields one batch of changes (a changed value, a new key, a deleted key),
// applied with one parse and one verification. Values the overlay writes
// keep its types and styles (a flow list stays flow, quoting stays);
// comments, blank lines and the rest of the base stay byte for byte.
// Where the editor cannot write the change in place (say, a key of a
// complex kind, or an anchored map that aliases share), the merged nodes
// are written whole: the meaning is the same, the base's blank lines are
// not kept.

type ydoc struct {
	src   string
	lines []string // each with its "\n", except maybe the last
	root  *yaml.Node
	doc   *yaml.Node
}

func parseYAML(s, which string) (*ydoc, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	// yaml.v3 would read UTF-16 here; ConfigMap data is UTF-8.
	if err := checkUTF8(s, which, YAML); err != nil {
		return nil, err
	}
	doc, err := decodeOne(s, which)
	if err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "the value is empty"}
	}
	if n := findNode(doc, func(n *yaml.Node) bool { return n.Tag == "!!" }); n != nil {
		// yaml.v3 reads !%21 as the tag "!!" but writes "!!" back as
		// something else: the merge could not write the value.
		return nil, &ParseError{Which: which, Format: YAML, Line: n.Line, Column: n.Column, Msg: "the tag !! names no type"}
	}
	if err := checkDecodes(doc, which); err != nil {
		return nil, err
	}
	return &ydoc{src: s, lines: strings.SplitAfter(s, "\n"), root: doc.Content[0], doc: doc}, nil
}

// decodeOne decodes the document node of s, which must hold one document.
func decodeOne(s, which string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(strings.NewReader(s))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil, yamlError(which, err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, &ParseError{Which: which, Format: YAML, Msg: "it holds more than one document"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(which, err)
	}
	return &doc, nil
}

// checkDecodes catches what the node parser lets through: keys given twice
// (spelled alike, or spelled differently but read alike: true and True),
// bad aliases and merge keys. yaml.v3's decoder checks the rest, with a
// map or list used as a key ({{PROJECT_ID}}, a template placeholder, reads
// as a map) standing aside: YAML allows it, and only a merge that must
// match keys in its map needs strings (matchedKeys says so, with the
// line).
func checkDecodes(doc *yaml.Node, which string) error {
	if err := checkKeys(doc, which, map[*yaml.Node]bool{}); err != nil {
		return err
	}
	// The decoder cannot hold a map as a key of a Go map: such keys are
	// swapped for unique strings while it runs, in place (a copy would
	// expand aliases, which the decoder bounds), then put back.
	swaps := swapComplexKeys(doc, nil, map[*yaml.Node]bool{})
	var v any
	err := doc.Decode(&v)
	for _, sw := range swaps {
		sw.m.Content[sw.i] = sw.key
	}
	if err != nil {
		return yamlError(which, err)
	}
	return nil
}

// keySwap is a key that is a map or a list, key i of map m, swapped for a
// string while the decoder runs.
type keySwap struct {
	m   *yaml.Node
	i   int
	key *yaml.Node
}

// swapComplexKeys swaps the keys in n that are maps or lists for unique
// strings, and returns swaps with them added.
func swapComplexKeys(n *yaml.Node, swaps []keySwap, seen map[*yaml.Node]bool) []keySwap {
	if seen[n] {
		return swaps
	}
	seen[n] = true
	if n.Kind == yaml.MappingNode {
		swaps = swapKeysOf(n, swaps)
	}
	for _, c := range n.Content {
		swaps = swapComplexKeys(c, swaps, seen)
	}
	return swaps
}

// swapKeysOf is swapComplexKeys for the keys of map n.
func swapKeysOf(n *yaml.Node, swaps []keySwap) []keySwap {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
			swaps = append(swaps, keySwap{n, i, k})
			n.Content[i] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprintf("\x00key %d", len(swaps)), Line: k.Line, Column: k.Column}
		}
	}
	return swaps
}

// checkKeys refuses a map whose keys readers take for one key though they
// are spelled differently (package scalar); yaml.v3's decoder refuses those
// spelled alike.
func checkKeys(n *yaml.Node, which string, seen map[*yaml.Node]bool) error {
	if seen[n] {
		return nil
	}
	seen[n] = true
	if err := keysReadAlike(n, which); err != nil {
		return err
	}
	for _, c := range n.Content {
		if err := checkKeys(c, which, seen); err != nil {
			return err
		}
	}
	return nil
}

// keysReadAlike is checkKeys for the keys of n, if it is a map.
func keysReadAlike(n *yaml.Node, which string) error {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var err error
	scalar.ResolvedDuplicates(n.Content, func(i, j int) {
		if err == nil {
			a, b := n.Content[i], n.Content[j]
			err = &ParseError{Which: which, Format: YAML, Line: b.Line, Column: b.Column,
				Msg: fmt.Sprintf("the keys %q (line %d) and %q are one key to YAML readers, which keep only the last; remove one, or quote both to make them strings", a.Value, a.Line, b.Value)}
		}
	})
	return err
}

// findNode returns the first node of n, n itself first, that f accepts;
// nil when there is none. Aliases are not followed.
func findNode(n *yaml.Node, f func(*yaml.Node) bool) *yaml.Node {
	if f(n) {
		return n
	}
	for _, c := range n.Content {
		if found := findNode(c, f); found != nil {
			return found
		}
	}
	return nil
}

// eachNode calls f on every node of n, n itself first. Aliases are not
// followed.
func eachNode(n *yaml.Node, f func(*yaml.Node)) {
	f(n)
	for _, c := range n.Content {
		eachNode(c, f)
	}
}

func yamlError(which string, err error) error {
	pe := &ParseError{Which: which, Format: YAML, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if n, e := fmt.Sscanf(pe.Msg, "line %d:", &pe.Line); n == 1 && e == nil {
		pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
	}
	return pe
}

func isMap(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

// copyNode copies a node deeply, replacing aliases by copies of what they
// point to (an anchor of the overlay means nothing in the base).
func copyNode(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		c := copyNode(n.Alias)
		c.Anchor = ""
		return c
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x)
	}
	return &c
}

// expandInherited returns the overlay root with aliases and merge keys expanded.
func expandInherited(n *yaml.Node) *yaml.Node {
	c, err := inherit.Expand(n, nil)
	if err != nil {
		// parseYAML decoded the value, which checks merge keys and bounds
		// aliases: not reached
		c = copyNode(n)
	}
	eachNode(c, func(n *yaml.Node) {
		n.Anchor = ""
		spellNull(n)
	})
	return c
}

// matchedKeys refuses, where the merge must match the overlay's keys
// against the base's (a map of the overlay meeting a map of the base with
// entries), a key that is a map or a list. YAML allows them ({{PROJECT_ID}},
// a template placeholder, is a map whose key is a map), and parts of a
// value the overlay does not reach may hold them, but no key can be matched
// against one: merged, {{PROJECT_ID}} would take the overlay's keys beside
// it, which nobody means.
func matchedKeys(path fieldpath.Path, b, o *yaml.Node) error {
	b, o = yamltree.Resolve(b), yamltree.Resolve(o)
	if !isMap(b) || !isMap(o) || len(b.Content) == 0 {
		return nil
	}
	if err := scalarKeys(path, b, "base"); err != nil {
		return err
	}
	if err := scalarKeys(path, o, "overlay"); err != nil {
		return err
	}
	for i := 0; i+1 < len(o.Content); i += 2 {
		k := yamltree.Resolve(o.Content[i]).Value
		if err := matchedKeys(appendKey(path, k), yamltree.Lookup(b, k), o.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// scalarKeys refuses a map that has a map or a list for a key (matchedKeys).
func scalarKeys(path fieldpath.Path, m *yaml.Node, which string) error {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := yamltree.Resolve(m.Content[i])
		if k.Kind != yaml.MappingNode && k.Kind != yaml.SequenceNode {
			continue
		}
		where := "at the top level"
		if len(path) > 0 {
			where = "in " + path.String()
		}
		kind := "a map"
		if k.Kind == yaml.SequenceNode {
			kind = "a list"
		}
		return &MergeError{fmt.Sprintf("the %s value's key %s at line %d, column %d is %s, not a string ({{NAME}} reads as a map in YAML: quote it to make it a string), and the merge must match keys there",
			which, where, k.Line, k.Column, kind)}
	}
	return nil
}
