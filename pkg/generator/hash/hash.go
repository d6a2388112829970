package hash

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Len is the length of a suffix.
const Len = 10

// Suffix returns the suffix kustomize would append (after a "-") to the name
// of res, a ConfigMap or a Secret.
func Suffix(res *yaml.RNode) (string, error) {
	var m map[string]any
	switch kind := res.GetKind(); kind {
	case "ConfigMap":
		m = map[string]any{"kind": kind, "name": "", "data": field(res, "data")}
		if bin := field(res, "binaryData"); isMap(bin) {
			m["binaryData"] = bin
		}
	case "Secret":
		m = map[string]any{"kind": kind, "name": "", "data": field(res, "data"), "type": field(res, "type")}
		if sd := field(res, "stringData"); isMap(sd) {
			m["stringData"] = sd
		}
	default:
		return "", fmt.Errorf("name suffix hash: only ConfigMaps and Secrets are hashed, not %s", kind)
	}
	for k, v := range m {
		if e, ok := v.(error); ok {
			return "", fmt.Errorf("name suffix hash: %s: %w", k, e)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("name suffix hash: %w", err)
	}
	return Encode(b), nil
}

// Encode turns bytes into a suffix: sha256, ten hex digits, letters for
// the digits and letters that could make the suffix look like a number or a
// word.
func Encode(b []byte) string {
	sum := sha256.Sum256(b)
	h := []byte(hex.EncodeToString(sum[:])[:Len])
	for i, c := range h {
		switch c {
		case '0':
			h[i] = 'g'
		case '1':
			h[i] = 'h'
		case '3':
			h[i] = 'k'
		case 'a':
			h[i] = 'm'
		case 'e':
			h[i] = 't'
		}
	}
	return string(h)
}

// IsSuffix tells whether s could be a suffix: ten characters from the
// alphabet Encode produces.
func IsSuffix(s string) bool {
	if len(s) != Len {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '2' && c <= '9' && c != '3':
		case c >= 'b' && c <= 'f' && c != 'e':
		case c == 'g', c == 'h', c == 'k', c == 'm', c == 't':
		default:
			return false
		}
	}
	return true
}

func isMap(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// field returns what kustomize puts in the hashed object for a top-level
// field: "" when missing, a scalar's text, or the JSON form of a map (a
// sequence, which no valid resource has there, becomes null as in kustomize).
// An error is returned as the value.
func field(res *yaml.RNode, name string) any {
	n := res.Field(name)
	if n == nil || n.Value == nil {
		return ""
	}
	v := n.Value.YNode()
	if v.Kind == yaml.ScalarNode {
		return v.Value
	}
	if v.Kind == yaml.MappingNode {
		if m, ok := stringMap(v); ok {
			return m
		}
	}
	// The general path, for values that are not all plain strings: the
	// node's JSON form (numbers, booleans and nested values as kyaml renders
	// them), read back into a map as kustomize does.
	b, err := n.Value.MarshalJSON()
	if err != nil {
		return err
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m) // a non-map stays nil, which encodes as null
	return m
}

// stringMap is the fast path: a map whose values are all strings, which is
// every generated ConfigMap and Secret.
func stringMap(n *yaml.Node) (map[string]any, bool) {
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || v.Kind != yaml.ScalarNode || k.ShortTag() != yaml.NodeTagString || v.ShortTag() != yaml.NodeTagString {
			return nil, false
		}
		if _, dup := m[k.Value]; dup {
			return nil, false
		}
		m[k.Value] = v.Value
	}
	return m, true
}
