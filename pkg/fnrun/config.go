package fnrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/yamljson"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Decode decodes a config into a struct with json tags. Unknown fields are
// errors: a misspelt field silently ignored is the kind of surprise our
// users lose hours to.
func Decode(config *yaml.RNode, into any) error {
	b, err := yamljson.Encode(config.YNode())
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if unknown := unknownFields(config.YNode(), reflect.TypeOf(into), ""); len(unknown) > 0 {
		return fmt.Errorf("config %s %q: %s", config.GetKind(), config.GetName(), strings.Join(unknown, "; "))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("config %s %q: %s", config.GetKind(), config.GetName(), strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
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
// does not have, each with its path and line (patches[1].traget, line 9),
// which encoding/json's own error does not give.
func unknownFields(n *yaml.Node, t reflect.Type, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if t.Implements(unmarshaler) || reflect.PointerTo(t).Implements(unmarshaler) {
		return nil // the type reads its own form
	}
	var out []string
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := jsonFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			ft, ok := fields[k.Value]
			if !ok {
				at := ""
				if path != "" {
					at = path + ": "
				}
				out = append(out, fmt.Sprintf("%sunknown field %q (line %d)", at, k.Value, k.Line))
				continue
			}
			out = append(out, unknownFields(n.Content[i+1], ft, join(path, k.Value))...)
		}
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			out = append(out, unknownFields(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	case t.Kind() == reflect.Map && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			out = append(out, unknownFields(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value))...)
		}
	}
	return out
}

var unmarshaler = reflect.TypeFor[json.Unmarshaler]()

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
