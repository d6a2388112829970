package hash

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Len is the length of a suffix.
const Len = 10

// Suffix returns the suffix kustomize would append (after a "-") to the name
// of res, a ConfigMap or a Secret.
func Suffix(res *yaml.RNode) (string, error) {
	m, err := hashed(res)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("name suffix hash: %w", err)
	}
	return Encode(b), nil
}

// hashed is the object kustomize hashes for res (see the package comment).
func hashed(res *yaml.RNode) (map[string]any, error) {
	var m map[string]any
	switch kind := res.GetKind(); kind {
	case "ConfigMap":
		m = map[string]any{"kind": kind, "name": "", "data": field(res, "data")}
		addMap(m, res, "binaryData")
	case "Secret":
		m = map[string]any{"kind": kind, "name": "", "data": field(res, "data"), "type": field(res, "type")}
		addMap(m, res, "stringData")
	default:
		return nil, fmt.Errorf("name suffix hash: only ConfigMaps and Secrets are hashed, not %s", kind)
	}
	for k, v := range m {
		if e, ok := v.(error); ok {
			return nil, fmt.Errorf("name suffix hash: %s: %w", k, e)
		}
	}
	return m, nil
}

// addMap adds a field kustomize hashes only when the resource has it as a
// map (binaryData, stringData).
func addMap(m map[string]any, res *yaml.RNode, name string) {
	if v := field(res, name); isMap(v) {
		m[name] = v
	}
}

// alphabet holds the characters of a suffix: the hex digits but those
// Encode replaces, and their replacements.
const alphabet = "2456789bcdfghkmt"

// letters replaces the hex digits that could make a suffix look like a
// number or a word.
var letters = strings.NewReplacer("0", "g", "1", "h", "3", "k", "a", "m", "e", "t")

// Encode turns bytes into a suffix: sha256, ten hex digits, letters for
// the digits and letters that could make the suffix look like a number or a
// word.
func Encode(b []byte) string {
	sum := sha256.Sum256(b)
	return letters.Replace(hex.EncodeToString(sum[:])[:Len])
}

// IsSuffix tells whether s could be a suffix: ten characters from the
// alphabet Encode produces.
func IsSuffix(s string) bool {
	if len(s) != Len {
		return false
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(alphabet, s[i]) < 0 {
			return false
		}
	}
	return true
}

// TrimSuffix splits name-<suffix> into the name before the suffix; ok is
// false when name does not end in something that could be a suffix.
func TrimSuffix(name string) (base string, ok bool) {
	n := len(name) - Len - 1
	if n <= 0 || name[n] != '-' || !IsSuffix(name[n+1:]) {
		return "", false
	}
	return name[:n], true
}

// Hashed reports whether the name of res, a ConfigMap or a Secret, ends in
// the suffix of its content: kustomize (or a generator doing as it does)
// hashed it, and nothing changed it since.
func Hashed(res *yaml.RNode) bool {
	name := res.GetName()
	if _, ok := TrimSuffix(name); !ok {
		return false
	}
	s, err := Suffix(res)
	return err == nil && s == name[len(name)-Len:]
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
		if !isString(k) || !isString(v) {
			return nil, false
		}
		if _, dup := m[k.Value]; dup {
			return nil, false
		}
		m[k.Value] = v.Value
	}
	return m, true
}

func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagString
}
