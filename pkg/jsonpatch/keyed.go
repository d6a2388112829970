package jsonpatch

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// MergeValuesKeyed is MergeValues with lists merged by key where keys says
// so, the way strategic merge merges a list with a merge key: each element
// of the patch's list merges (RFC 7386) into the first element of the
// target's list whose key fields have the same values, or is appended when
// none has; an element with `$patch: delete` removes every element with its
// key values instead (none: nothing to do). The target's other elements stay
// where they are. Key values compare as text: 8080 and "8080" are one key.
//
// keys is asked, for each list of the patch, where it is: the map keys on
// the way and, for a list inside an element of a keyed list, that element
// (the target's). It returns the key fields, or nil for a list the patch
// replaces whole, as RFC 7386 does.
//
// A patch element of a keyed list that is not a map, lacks a key field or
// has a key that is not a scalar, or whose $patch is not delete, is an
// error naming where it is: guessing could merge into the wrong element.
func MergeValuesKeyed(target, patch any, keys func(path []Step) []string) (any, error) {
	return mergeKeyed(target, patch, nil, keys)
}

// Step is one step of the way to a value: a map key, or (Element set) an
// element of a list merged by key.
type Step struct {
	Key     string
	Element any
	// Index is the element's position in the patch's list, for messages.
	Index int
}

// KeyError is a patch element a keyed list cannot take.
type KeyError struct {
	Path []Step
	Msg  string
}

func (e *KeyError) Error() string {
	return fmt.Sprintf("%s: %s", StepsString(e.Path), e.Msg)
}

// StepsString writes a way to a value as a field path: keys joined by dots
// (dots in keys escaped), elements by their position.
func StepsString(path []Step) string {
	if len(path) == 0 {
		return "the top level"
	}
	parts := make([]string, len(path))
	for i, s := range path {
		if s.Element != nil {
			parts[i] = strconv.Itoa(s.Index)
		} else {
			parts[i] = strings.ReplaceAll(s.Key, ".", `\.`)
		}
	}
	return strings.Join(parts, ".")
}

// mergeKeyed is RFC 7386's pseudocode, with keyed lists when keys is set
// (and only then is path kept).
func mergeKeyed(target, patch any, path []Step, keys func([]Step) []string) (any, error) {
	switch p := patch.(type) {
	case map[string]any:
		tm, ok := target.(map[string]any)
		if !ok {
			tm = map[string]any{}
		}
		out := make(map[string]any, len(tm)+len(p))
		for k, v := range tm {
			out[k] = v
		}
		for k, v := range p {
			if v == nil {
				delete(out, k)
				continue
			}
			sub := path
			if keys != nil {
				sub = appendStep(path, Step{Key: k})
			}
			merged, err := mergeKeyed(out[k], v, sub, keys)
			if err != nil {
				return nil, err
			}
			out[k] = merged
		}
		return out, nil
	case []any:
		if keys == nil {
			return patch, nil
		}
		fields := keys(path)
		if fields == nil {
			return patch, nil
		}
		tl, _ := target.([]any) // not a list: the patch's elements make one
		return mergeList(tl, p, path, fields, keys)
	}
	return patch, nil
}

// mergeList merges the patch's list p into the target's list t by the key
// fields.
func mergeList(t, p []any, path []Step, fields []string, keys func([]Step) []string) ([]any, error) {
	out := append([]any{}, t...)
	for i, pe := range p {
		pm, ok := pe.(map[string]any)
		if !ok {
			return nil, &KeyError{appendStep(path, Step{Element: pe, Index: i}), fmt.Sprintf("the list merges by %s, but this element is not a map", fieldList(fields))}
		}
		vals, err := elementKeys(pm, fields)
		if err != nil {
			return nil, &KeyError{appendStep(path, Step{Element: pe, Index: i}), err.Error()}
		}
		del, err := deletes(pm)
		if err != nil {
			return nil, &KeyError{appendStep(path, Step{Element: pe, Index: i}), err.Error()}
		}
		if del {
			kept := out[:0:0]
			for _, e := range out {
				if !hasKeys(e, fields, vals) {
					kept = append(kept, e)
				}
			}
			out = kept
			continue
		}
		j := -1
		for k, e := range out {
			if hasKeys(e, fields, vals) {
				j = k
				break
			}
		}
		var cur any
		if j >= 0 {
			cur = out[j]
		}
		merged, err := mergeKeyed(cur, withoutDirective(pm), appendStep(path, Step{Element: elementOr(cur, pm), Index: i}), keys)
		if err != nil {
			return nil, err
		}
		if j >= 0 {
			out[j] = merged
		} else {
			out = append(out, merged)
		}
	}
	return out, nil
}

// elementOr is the element a path into a keyed list's element names: the
// target's, or the patch's where the target has none.
func elementOr(cur any, pe map[string]any) any {
	if cur != nil {
		return cur
	}
	return pe
}

// DirectiveKey is the key of the one directive an element of a keyed list
// may hold: `$patch: delete`, as in strategic merge.
const DirectiveKey = "$patch"

// deletes reports whether a patch element is {…keys, $patch: delete}; any
// other $patch is an error.
func deletes(pm map[string]any) (bool, error) {
	d, ok := pm[DirectiveKey]
	if !ok {
		return false, nil
	}
	switch d {
	case "delete":
		return true, nil
	case "merge":
		return false, nil
	}
	return false, fmt.Errorf("unknown $patch %v: an element of a list merged by key may say $patch: delete (or merge, the default)", describeValue(d))
}

func withoutDirective(pm map[string]any) map[string]any {
	if _, ok := pm[DirectiveKey]; !ok {
		return pm
	}
	out := make(map[string]any, len(pm)-1)
	for k, v := range pm {
		if k != DirectiveKey {
			out[k] = v
		}
	}
	return out
}

// elementKeys is the text of each key field of a patch element.
func elementKeys(pm map[string]any, fields []string) ([]string, error) {
	vals := make([]string, len(fields))
	for i, f := range fields {
		v, ok := pm[f]
		if !ok || v == nil {
			return nil, fmt.Errorf("the element has no %q: the list merges by %s, so the element cannot be matched; add %q to it", f, fieldList(fields), f)
		}
		text, ok := KeyText(v)
		if !ok {
			return nil, fmt.Errorf("merge key %q must be a value, found a %s", f, describeValue(v))
		}
		vals[i] = text
	}
	return vals, nil
}

// hasKeys reports whether a target element has the key values vals.
func hasKeys(e any, fields, vals []string) bool {
	m, ok := e.(map[string]any)
	if !ok {
		return false
	}
	for i, f := range fields {
		text, ok := KeyText(m[f])
		if !ok || text != vals[i] {
			return false
		}
	}
	return true
}

// KeyText is a scalar as text, the way keyed lists compare keys (8080 and
// "8080" are one key; a number as its value, 1.0 as 1); ok is false for a
// map, a list or null.
func KeyText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		// as a YAML reader decodes the same literal: 1.0 is 1
		if i, err := x.Int64(); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if u, err := strconv.ParseUint(x.String(), 10, 64); err == nil {
			return strconv.FormatUint(u, 10), true
		}
		if f, err := x.Float64(); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case uint64:
		return strconv.FormatUint(x, 10), true
	case nil, map[string]any, []any:
		return "", false
	}
	return fmt.Sprint(v), true
}

func describeValue(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map"
	case []any:
		return "list"
	case nil:
		return "null"
	}
	return strconv.Quote(fmt.Sprint(v))
}

func fieldList(fields []string) string {
	return "[" + strings.Join(fields, ", ") + "]"
}

func appendStep(path []Step, s Step) []Step {
	out := make([]Step, len(path), len(path)+1)
	copy(out, path)
	return append(out, s)
}
