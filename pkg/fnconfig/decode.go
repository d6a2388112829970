package fnconfig

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/internal/yamltree"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Decode decodes a config into a struct with json tags. Unknown fields are
// errors: a misspelt field silently ignored is the kind of surprise our
// users lose hours to.
func Decode(config *yaml.RNode, into any) error {
	what := fmt.Sprintf("config %s %q", config.GetKind(), config.GetName())
	return decode(config.YNode(), into, what, func() *configLines { return linesOf(config) })
}

// DecodeFile decodes a document read from a file a config names (a
// replacements file, say) as Decode decodes a config: the same checks,
// and messages naming the file and its lines.
func DecodeFile(doc *yaml.RNode, into any, file string) error {
	return decode(doc.YNode(), into, file, func() *configLines { return &configLines{file: file} })
}

// decode is Decode's and DecodeFile's: what names the document in
// messages; lines (called only for a message) finds its lines.
func decode(n *yaml.Node, into any, what string, lines func() *configLines) error {
	b, err := yamljson.Encode(n, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if unknown := unknownFields(n, reflect.TypeOf(into), "", nil); len(unknown) > 0 {
		// again, with the lines in the user's file (which may mean reading it)
		unknown = unknownFields(n, reflect.TypeOf(into), "", lines())
		return fmt.Errorf("%s: %s", what, strings.Join(unknown, "; "))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Type != nil {
			// The walk above catches these with a path and a line; this is
			// the fallback, in words rather than Go types.
			return fmt.Errorf("%s: %s: want %s, got %s", what, te.Field, goKindName(te.Type), jsonValueName(te.Value))
		}
		return fmt.Errorf("%s: %s", what, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// mismatch says what is wrong when a YAML node cannot decode into a Go
// type, in the config's words (a string, a list), without the value: a
// config may carry secrets (secretGenerator literals), so it is described
// as a Secret's would be. "" when it fits.
func mismatch(n *yaml.Node, t reflect.Type) string {
	n = yamltree.Resolve(n)
	if yamltree.IsNull(n) {
		return "" // null decodes into anything as its zero value
	}
	kind, tags, checked := decodesFrom(t)
	if !checked || n.Kind == kind && (tags == nil || slices.Contains(tags, n.ShortTag())) {
		return ""
	}
	return fmt.Sprintf("want %s, got %s", goKindName(t), yamltree.DescribeSecret(n, true))
}

// decodesFrom is the kind of node a Go type decodes from and, for a
// scalar, the tags it may have; checked is false for the types mismatch
// leaves to encoding/json.
func decodesFrom(t reflect.Type) (kind yaml.Kind, tags []string, checked bool) {
	switch t.Kind() {
	case reflect.String:
		return yaml.ScalarNode, []string{"!!str"}, true
	case reflect.Bool:
		return yaml.ScalarNode, []string{"!!bool"}, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return yaml.ScalarNode, []string{"!!int"}, true
	case reflect.Float32, reflect.Float64:
		return yaml.ScalarNode, []string{"!!int", "!!float"}, true
	case reflect.Struct, reflect.Map:
		return yaml.MappingNode, nil, true
	case reflect.Slice, reflect.Array:
		return yaml.SequenceNode, nil, true
	}
	return 0, nil, false
}

// goKindName names what a Go type holds, in YAML terms.
func goKindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Struct, reflect.Map:
		return "a map"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Pointer:
		return goKindName(t.Elem())
	}
	return "another kind of value"
}

// jsonValueName turns encoding/json's names for what it found into YAML's.
func jsonValueName(v string) string {
	switch v {
	case "object":
		return "a map"
	case "array":
		return "a list"
	case "number", "string":
		return "a " + v
	case "bool":
		return "a boolean"
	}
	return "another kind of value"
}

// unknownFields finds the keys of a config that the Go type it decodes into
// does not have, and the values of the wrong kind (a number where a string
// belongs), each with its path and line (patches[1].traget, line 9), which
// encoding/json's own error does not give.
func unknownFields(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	t, n = pointee(t), configTop(n)
	if readsItself(t) {
		return nil
	}
	if msg := mismatch(n, t); msg != "" {
		return []string{wrongKind(n, t, path, msg, lines)}
	}
	if kind, _, _ := decodesFrom(t); n.Kind != kind {
		return nil // null, an alias, or a type mismatch leaves to encoding/json
	}
	switch t.Kind() {
	case reflect.Struct:
		return unknownInStruct(n, t, path, lines)
	case reflect.Slice, reflect.Array:
		return unknownInList(n, t, path, lines)
	case reflect.Map:
		return unknownInMap(n, t, path, lines)
	}
	return nil
}

// pointee is the type a pointer type (of any depth) points to; t itself
// when it is no pointer.
func pointee(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// readsItself reports whether t (or a pointer to it) decodes its own form,
// which the walk then leaves alone.
func readsItself(t reflect.Type) bool {
	return t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler)
}

// unknownInList checks each element of a list that decodes into slice t.
func unknownInList(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	var out []string
	for i, c := range n.Content {
		out = append(out, unknownFields(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), lines)...)
	}
	return out
}

// unknownInMap checks each value of a map that decodes into map t.
func unknownInMap(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, unknownFields(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value), lines)...)
	}
	return out
}

// wrongKind says that the value at path is not of the kind t wants.
func wrongKind(n *yaml.Node, t reflect.Type, path, msg string, lines *configLines) string {
	at := path
	if at == "" {
		at = "the config"
	}
	hint := ""
	switch {
	case t.Kind() == reflect.String && n.Kind == yaml.ScalarNode:
		hint = "; quote it to make it a string"
	case t.Kind() == reflect.Slice && n.Kind != yaml.SequenceNode:
		hint = "; write a list, " + listShape(t.Elem())
	}
	return fmt.Sprintf("%s: %s%s%s", at, msg, lines.paren(n), hint)
}

// listShape says how each entry of a list of elem is written: one
// "- path: …" per entry for a list of maps (the fields every entry needs),
// one "- …" for a list of values.
func listShape(elem reflect.Type) string {
	elem = pointee(elem)
	if elem.Kind() != reflect.Struct {
		return `one "- …" per entry`
	}
	var need []string
	for i := 0; i < elem.NumField(); i++ {
		name, opts, _ := strings.Cut(elem.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && !strings.Contains(opts, "omitempty") {
			need = append(need, name+": …")
		}
	}
	if len(need) == 0 {
		return "each entry a map"
	}
	return fmt.Sprintf(`one "- %s" per entry`, strings.Join(need, ", "))
}

// unknownInStruct checks a map that decodes into struct t: each key must be
// one of its fields, each value right for its field.
func unknownInStruct(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	var out []string
	fields := jsonFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if ft, ok := fields[k.Value]; ok {
			out = append(out, unknownFields(n.Content[i+1], ft, join(path, k.Value), lines)...)
		} else {
			out = append(out, unknownField(k, fields, path, lines))
		}
	}
	return out
}

// unknownField says that the key k of the map at path is none of the
// struct's fields, with the field probably meant.
func unknownField(k *yaml.Node, fields map[string]reflect.Type, path string, lines *configLines) string {
	at := ""
	if path != "" {
		at = path + ": "
	}
	hint := ""
	if near := suggest.Nearest(k.Value, sortedKeys(fields)); near != "" {
		hint = fmt.Sprintf("; did you mean %s?", near)
	} else if owners := ownersOf(k.Value, fields); len(owners) > 0 {
		hint = fmt.Sprintf("; %s goes in %s", k.Value, strings.Join(owners, " or "))
	}
	return fmt.Sprintf("%sunknown field %q%s%s", at, k.Value, lines.paren(k), hint)
}

// ownersOf names the fields one level down that have a field key: a
// field written a level too high (mode: beside patchesPodSpec, where each
// entry takes it) is "each patchesPodSpec entry"; under a map field,
// "options".
func ownersOf(key string, fields map[string]reflect.Type) []string {
	var owners []string
	for _, name := range sortedKeys(fields) {
		t := pointee(fields[name])
		each := t.Kind() == reflect.Slice
		if each {
			t = pointee(t.Elem())
		}
		if t.Kind() != reflect.Struct {
			continue
		}
		if _, ok := jsonFields(t)[key]; !ok {
			continue
		}
		if each {
			name = "each " + name + " entry"
		}
		owners = append(owners, name)
	}
	return owners
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

func sortedKeys(m map[string]reflect.Type) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// jsonFields maps the JSON names of a struct's fields to their types,
// following embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && pointee(f.Type).Kind() == reflect.Struct:
			addUnnamed(fields, jsonFields(pointee(f.Type)))
		case f.IsExported():
			fields[cmp.Or(name, f.Name)] = f.Type
		}
	}
	return fields
}

// addUnnamed adds an embedded struct's fields to those of the struct
// embedding it, where it has none of that name.
func addUnnamed(fields, embedded map[string]reflect.Type) {
	for k, v := range embedded {
		if _, taken := fields[k]; !taken {
			fields[k] = v
		}
	}
}
