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
	if err := decodeJSON(s, which); err != nil {
		return nil, err
	}
	// encoding/json would read bad bytes as U+FFFD; the editor refuses
	// them rather than write text that is not what it read.
	if err := checkUTF8(s, which, JSON); err != nil {
		return nil, err
	}
	if t := strings.TrimSpace(s); !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[") {
		return nil, nil // a scalar: no keys
	}
	return jsonTree(s, which, cache)
}

// decodeJSON checks s with encoding/json, for its exact rules and
// messages.
func decodeJSON(s, which string) error {
	var v any
	err := json.Unmarshal([]byte(s), &v)
	if err == nil {
		return nil
	}
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
	return pe
}

// jsonTree reads an object or array of valid JSON as the editor does,
// refusing what it cannot read (nesting deeper than it allows cannot be
// merged either) and a key repeated in an object.
func jsonTree(s, which string, cache *embedded.Cache) (*yaml.Node, error) {
	err := embedded.Check(s, embedded.JSON) // Get would take YAML too
	var vs []*yaml.Node
	if err == nil {
		vs, err = embedded.Get(s, nil, embedded.Options{Cache: cache})
	}
	if err != nil {
		return nil, editorError(s, which, err)
	}
	if findNode(vs[0], repeatsKey) != nil {
		// Found on the tree; the scan of the text says where.
		return nil, repeatedKeyError(s, which)
	}
	return vs[0], nil
}

// editorError is the ParseError for valid JSON the editor does not read:
// a repeated key where there is one, else what the editor says.
func editorError(s, which string, err error) error {
	if derr := repeatedKeyError(s, which); derr != nil {
		return derr
	}
	pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "the text does not parse as JSON: ")}
	if n, _ := fmt.Sscanf(pe.Msg, "line %d, column %d:", &pe.Line, &pe.Column); n == 2 {
		pe.Msg = strings.TrimSpace(pe.Msg[strings.IndexByte(pe.Msg, ':')+1:])
	}
	return pe
}

// repeatedKeyError is the ParseError for the first key repeated within an
// object of valid JSON, nil when there is none.
func repeatedKeyError(s, which string) error {
	key, off, ok := duplicateKey(s)
	if !ok {
		return nil
	}
	line, col := lineCol(s, off)
	return &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: fmt.Sprintf("duplicate key %q", key)}
}

// repeatsKey reports whether n is a map that has a key twice.
func repeatsKey(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) <= 2 {
		return false
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i < len(n.Content); i += 2 {
		if seen[n.Content[i].Value] {
			return true
		}
		seen[n.Content[i].Value] = true
	}
	return false
}

// duplicateKey finds the first key repeated within an object of valid
// JSON, and the offset where it starts.
func duplicateKey(s string) (string, int, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var st jsonStack
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		isKey, repeated := st.key(tok)
		if repeated {
			// The key starts after the separator before it.
			off := before + len(s[before:]) - len(strings.TrimLeft(s[before:], " \t\r\n,"))
			return tok.(string), off, true
		}
		if !isKey {
			st.value(tok)
		}
	}
}

// jsonStack is the objects and arrays a scan of JSON tokens is in.
type jsonStack []*jsonFrame

type jsonFrame struct {
	object, wantKey bool
	seen            map[string]bool
}

// key takes tok for the key the innermost object expects, if it does
// (isKey), and reports whether the object has that key already.
func (st jsonStack) key(tok json.Token) (isKey, repeated bool) {
	key, ok := tok.(string)
	if !ok || len(st) == 0 || !st[len(st)-1].wantKey {
		return false, false
	}
	top := st[len(st)-1]
	if top.seen[key] {
		return true, true
	}
	top.seen[key] = true
	top.wantKey = false
	return true, false
}

// value takes tok, which is no key: an object or array opens or closes,
// and a value that ends makes the enclosing object expect a key again.
func (st *jsonStack) value(tok json.Token) {
	switch tok {
	case json.Delim('{'):
		*st = append(*st, &jsonFrame{object: true, wantKey: true, seen: map[string]bool{}})
		return
	case json.Delim('['):
		*st = append(*st, &jsonFrame{})
		return
	case json.Delim('}'), json.Delim(']'):
		*st = (*st)[:len(*st)-1]
	}
	if n := len(*st); n > 0 && (*st)[n-1].object {
		(*st)[n-1].wantKey = true
	}
}
