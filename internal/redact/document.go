package redact

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxLeaves bounds the values taken from inside one document, so that a
// hostile one cannot make registration slow; a document with more is
// taken as text, keys and all.
const maxLeaves = 10000

// document registers v as a document and reports true when it holds one
// (see the package documentation): a YAML or JSON map or list, written
// over several lines or in {} or [], whose every document reads as a map
// or a list with at most maxLeaves values.
func (s *Set) document(v string) bool {
	leaves, ok := documentOf(v)
	if !ok {
		return false
	}
	s.docs = append(s.docs, v)
	s.lines(v)
	for _, l := range leaves {
		s.add(l, false)
	}
	return true
}

// documentOf is the values of the document v holds; ok is false when it
// holds none.
func documentOf(v string) (leaves []string, ok bool) {
	t := strings.TrimSpace(v)
	if !strings.Contains(t, "\n") && !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return nil, false // a word, a token, a passphrase with ": " in it
	}
	return documentLeaves(v)
}

// documentLeaves are the values (not keys) of every document of v, aliases
// followed, booleans and nulls left out; ok is false when v does not read
// as documents that are maps or lists, or holds more than maxLeaves.
func documentLeaves(v string) (leaves []string, ok bool) {
	dec := yaml.NewDecoder(bytes.NewReader([]byte(v)))
	w := leafWalk{seen: map[*yaml.Node]bool{}}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return w.leaves, len(w.leaves) > 0 || w.nodes > 0
		}
		if err != nil || !isCollection(&doc) {
			return nil, false
		}
		if !w.walk(&doc) {
			return nil, false
		}
	}
}

// isCollection reports whether a document holds a map or a list.
func isCollection(doc *yaml.Node) bool {
	if len(doc.Content) != 1 {
		return false
	}
	k := doc.Content[0].Kind
	return k == yaml.MappingNode || k == yaml.SequenceNode
}

// leafWalk gathers a document's values, each node once (an alias bomb is
// walked in the size of its text).
type leafWalk struct {
	seen   map[*yaml.Node]bool
	leaves []string
	nodes  int
}

// walk reports false when the document holds more than maxLeaves values.
func (w *leafWalk) walk(x *yaml.Node) bool {
	if x == nil || w.seen[x] {
		return true
	}
	w.seen[x] = true
	w.nodes++
	switch x.Kind {
	case yaml.AliasNode:
		return w.walk(x.Alias) // the anchor's value, walked once
	case yaml.ScalarNode:
		// true, false and null are no secrets, and are everywhere
		if t := x.ShortTag(); t != "!!bool" && t != "!!null" {
			w.leaves = append(w.leaves, x.Value)
		}
		return len(w.leaves) <= maxLeaves
	case yaml.MappingNode:
		for i := 1; i < len(x.Content); i += 2 {
			if !w.walk(x.Content[i]) { // values only: keys are not secret
				return false
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range x.Content {
			if !w.walk(c) {
				return false
			}
		}
	}
	return true
}
