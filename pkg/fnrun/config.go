package fnrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
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
	b, err := yamljson.Encode(n)
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
	var ok bool
	switch t.Kind() {
	case reflect.String:
		ok = n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str"
	case reflect.Bool:
		ok = n.Kind == yaml.ScalarNode && n.ShortTag() == "!!bool"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		ok = n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int"
	case reflect.Float32, reflect.Float64:
		ok = n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float")
	case reflect.Struct, reflect.Map:
		ok = n.Kind == yaml.MappingNode
	case reflect.Slice, reflect.Array:
		ok = n.Kind == yaml.SequenceNode
	default:
		return ""
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("want %s, got %s", goKindName(t), yamltree.DescribeSecret(n, true))
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

// InlineOrFile returns an entry's content given either inline (the config's
// `patch` field) or as a file (`path`, with `file` accepted as the KEP's
// name for it).
func (r *Request) InlineOrFile(inline, path, file string) (string, error) {
	if file != "" {
		if path != "" && path != file {
			return "", fmt.Errorf("path and file name the same thing; give one")
		}
		path = file
	}
	switch {
	case inline != "" && path != "":
		return "", fmt.Errorf("both patch and path are set; give one")
	case inline != "":
		return inline, nil
	case path != "":
		b, err := r.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("path: %w", err)
		}
		return string(b), nil
	}
	return "", nil
}

// unknownFields finds the keys of a config that the Go type it decodes into
// does not have, and the values of the wrong kind (a number where a string
// belongs), each with its path and line (patches[1].traget, line 9), which
// encoding/json's own error does not give.
func unknownFields(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return nil // the type reads its own form
	}
	if msg := mismatch(n, t); msg != "" {
		return []string{wrongKind(n, t, path, msg, lines)}
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		return unknownInStruct(n, t, path, lines)
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		var out []string
		for i, c := range n.Content {
			out = append(out, unknownFields(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), lines)...)
		}
		return out
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		var out []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			out = append(out, unknownFields(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value), lines)...)
		}
		return out
	}
	return nil
}

// wrongKind says that the value at path is not of the kind t wants.
func wrongKind(n *yaml.Node, t reflect.Type, path, msg string, lines *configLines) string {
	at := path
	if at == "" {
		at = "the config"
	}
	hint := ""
	if t.Kind() == reflect.String && n.Kind == yaml.ScalarNode {
		hint = "; quote it to make it a string"
	}
	return fmt.Sprintf("%s: %s%s%s", at, msg, lines.paren(n), hint)
}

// unknownInStruct checks a map that decodes into struct t: each key must be
// one of its fields, each value right for its field.
func unknownInStruct(n *yaml.Node, t reflect.Type, path string, lines *configLines) []string {
	var out []string
	fields := jsonFields(t)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ft, ok := fields[k.Value]
		if ok {
			out = append(out, unknownFields(n.Content[i+1], ft, join(path, k.Value), lines)...)
			continue
		}
		at := ""
		if path != "" {
			at = path + ": "
		}
		hint := ""
		if near := suggest.Nearest(k.Value, sortedKeys(fields)); near != "" {
			hint = fmt.Sprintf("; did you mean %s?", near)
		}
		out = append(out, fmt.Sprintf("%sunknown field %q%s%s", at, k.Value, lines.paren(k), hint))
	}
	return out
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
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					if _, taken := fields[k]; !taken {
						fields[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

// checkConfigShape refuses a config whose top level or metadata is not the
// shape every Kubernetes-style object has, before anything reads it with
// kyaml's getters (which panic on a list, or on metadata: [..]). A JSON
// patch file given as the config is the common way to get here.
func checkConfigShape(config *yaml.RNode) error {
	n := config.YNode()
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("the function config is %s, not a map with apiVersion, kind and metadata (line %d)", yamltree.DescribeSecret(n, true), n.Line)
	}
	var s shapeCheck
	s.want("apiVersion", mapField(n, "apiVersion"), yaml.ScalarNode)
	s.want("kind", mapField(n, "kind"), yaml.ScalarNode)
	meta := mapField(n, "metadata")
	s.want("metadata", meta, yaml.MappingNode)
	if meta != nil && meta.Kind == yaml.MappingNode {
		s.metadata(meta)
	}
	if len(s.problems) > 0 {
		return fmt.Errorf("malformed function config: %s", strings.Join(s.problems, "; "))
	}
	return nil
}

// shapeCheck collects what checkConfigShape finds wrong.
type shapeCheck struct{ problems []string }

// want notes a field whose value is not of kind (null and absent are fine;
// any scalar is fine where a string is wanted).
func (s *shapeCheck) want(field string, v *yaml.Node, kind yaml.Kind) {
	if v == nil || (v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null") {
		return
	}
	v = yamltree.Resolve(v)
	if v.Kind == kind || (kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode) {
		return
	}
	what := "a map"
	if kind == yaml.ScalarNode {
		what = "a string"
	}
	s.problems = append(s.problems, fmt.Sprintf("%s: want %s, got %s (line %d)", field, what, yamltree.DescribeSecret(v, true), v.Line))
}

// metadata checks name, namespace, labels and annotations.
func (s *shapeCheck) metadata(meta *yaml.Node) {
	s.want("metadata.name", mapField(meta, "name"), yaml.ScalarNode)
	s.want("metadata.namespace", mapField(meta, "namespace"), yaml.ScalarNode)
	for _, f := range []string{"labels", "annotations"} {
		m := mapField(meta, f)
		s.want("metadata."+f, m, yaml.MappingNode)
		if m != nil && m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				s.want("metadata."+f+"."+m.Content[i].Value, m.Content[i+1], yaml.ScalarNode)
			}
		}
	}
}
