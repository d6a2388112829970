package valuemerge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/embedded"
	yaml "go.yaml.in/yaml/v3"
)

// JSON is merged as data and written as edits of the base text through
// package embedded: a value the overlay does not touch keeps its bytes;
// a changed value, a new key and a deleted key are each one surgical edit,
// laid out as the base lays out its JSON.

// checkJSON checks s with encoding/json, for its exact rules and messages,
// then with the editor, and rejects repeated keys: encoding/json keeps the
// last of equal keys, and a merge cannot know which one was meant.
func checkJSON(s, which string) error {
	_, err := checkJSONTree(s, which, nil)
	return err
}

// checkJSONTree is checkJSON that also returns the value of an object or
// array as the editor reads it (nil for a scalar), parsed through cache.
func checkJSONTree(s, which string, cache *embedded.Cache) (*yaml.Node, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: JSON, Msg: "the value is empty"}
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "json: ")}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			// Offset counts the bytes read up to and including the bad one.
			pe.Line, pe.Column = lineCol(s, int(se.Offset)-1)
		case errors.As(err, &te):
			// encoding/json's text quotes the number; values may be secret.
			pe.Msg = "a number is out of range"
		}
		return nil, pe
	}
	if off := invalidUTF8(s); off >= 0 {
		// encoding/json would read the bad bytes as U+FFFD; the editor
		// refuses them rather than write text that is not what it read.
		line, col := lineCol(s, off)
		return nil, &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	dup := func() error {
		if key, off, ok := duplicateKey(s); ok {
			line, col := lineCol(s, off)
			return &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: fmt.Sprintf("duplicate key %q", key)}
		}
		return nil
	}
	if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return nil, nil // a scalar: no keys
	}
	// What the editor cannot read (nesting deeper than it allows) cannot
	// be merged either.
	err := embedded.Check(s, embedded.JSON) // Get would take YAML too
	var vs []*yaml.Node
	if err == nil {
		vs, err = embedded.Get(s, nil, embedded.Options{Cache: cache})
	}
	if err != nil {
		if derr := dup(); derr != nil {
			return nil, derr
		}
		pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "the text does not parse as JSON: ")}
		if n, _ := fmt.Sscanf(pe.Msg, "line %d, column %d:", &pe.Line, &pe.Column); n == 2 {
			pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
		}
		return nil, pe
	}
	if hasRepeatedKey(vs[0]) {
		// Found on the tree; the scan of the text says where.
		return nil, dup()
	}
	return vs[0], nil
}

// hasRepeatedKey reports whether a map, at any depth, has a key twice.
func hasRepeatedKey(n *yaml.Node) bool {
	if n.Kind == yaml.MappingNode && len(n.Content) > 2 {
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i < len(n.Content); i += 2 {
			if seen[n.Content[i].Value] {
				return true
			}
			seen[n.Content[i].Value] = true
		}
	}
	for _, c := range n.Content {
		if hasRepeatedKey(c) {
			return true
		}
	}
	return false
}

// duplicateKey finds the first key repeated within an object of valid
// JSON, and the offset where it starts.
func duplicateKey(s string) (string, int, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	type frame struct {
		object, wantKey bool
		seen            map[string]bool
	}
	var stack []*frame
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if key, ok := tok.(string); ok {
				if top.seen[key] {
					// The key starts after the separator before it.
					off := before + len(s[before:]) - len(strings.TrimLeft(s[before:], " \t\r\n,"))
					return key, off, true
				}
				top.seen[key] = true
				top.wantKey = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, wantKey: true, seen: map[string]bool{}})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: the enclosing object expects a key again.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].wantKey = true
		}
	}
}
