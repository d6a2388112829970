package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/dupkeys"
	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/pkg/jsonpatch"
	"github.com/patchwork-krm/patchwork/pkg/smp"
)

// Patch is an apply configuration: a partial object, read once and
// merged into any number of values.
type Patch struct {
	node *yaml.RNode
	val  any // as the API server decodes it
}

// ParsePatch reads an apply configuration (a map) written in JSON or YAML
// whose keys are each given once (package patch refuses a key given twice
// in any patch, as the API server refuses it in an applied configuration).
func ParsePatch(n *yaml.RNode) (*Patch, error) {
	b, err := yamljson.Encode(n.YNode(), nil)
	if err != nil {
		return nil, err
	}
	v, _, err := decode(b)
	if err != nil {
		return nil, err
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, errors.New("an apply patch is a map")
	}
	return &Patch{node: n, val: v}, nil
}

// Check types the patch with t as the API server types an applied
// configuration: a field t lacks, a value of another type, two elements
// of a keyed list with the same keys are errors (*smp.Error, the path in
// the patch).
func (p *Patch) Check(t Type) error {
	_, err := p.typed(t)
	return err
}

func (p *Patch) typed(t Type) (*typed.TypedValue, error) {
	tv, err := t.asTyped(p.val)
	if err != nil {
		return nil, newError(err, p.node.YNode(), "", t.secret)
	}
	return tv, nil
}

// Merge merges the patch into dst, a value of type t, as server-side apply
// merges an applied configuration into the object it applies to, without
// field ownership: the patch's fields win, the others stay. Lists merge as
// the schema says (a map by its keys, a set as a union, atomic replaced),
// maps key by key unless atomic. dst's nodes change only where the merge
// changed a value (jsonpatch.Rewrite): comments, key order and quoting of
// the rest stay. What the merge adds is charged to b, the run's budget
// (nil: a budget of the call's own), as every patch type's is. On error dst
// is unchanged; a key dst gives twice is one (the merge would read the
// last, the edit change the first).
func (p *Patch) Merge(dst *yaml.RNode, t Type, b *budget.Budget) error {
	pt, err := p.typed(t)
	if err != nil {
		return err
	}
	if d := dupkeys.Find(dst.YNode()); len(d) > 0 {
		return &smp.Error{Msg: d[0].MessageOf("the " + t.thing())}
	}
	return jsonpatch.Rewrite(dst, p.node.YNode(), b, func(in []byte) ([]byte, error) {
		live, spelt, err := decode(in)
		if err != nil {
			return nil, err
		}
		lt, err := t.asTyped(live, typed.AllowDuplicates)
		if err != nil {
			return nil, newError(err, dst.YNode(), fmt.Sprintf("the %s does not fit its schema", t.thing()), t.secret)
		}
		merged, err := lt.Merge(pt)
		if err != nil {
			return nil, newError(err, nil, "", t.secret)
		}
		if value.Equals(merged.AsValue(), lt.AsValue()) {
			return in, nil
		}
		return encode(merged.AsValue().Unstructured(), spelt)
	})
}

func (t Type) asTyped(v any, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	s := t.schema
	if s == nil {
		s = Builtin().smd
		t.ref = Builtin().named(deduced, "").ref
	}
	return typed.AsTyped(value.NewValueInterface(v), s, t.ref, opts...)
}

// thing names what the type is of, for messages: "resource", "PodSpec".
func (t Type) thing() string {
	if t.what == "" {
		return "value"
	}
	return t.what
}

// decode reads JSON as the API server does (k8s.io/apimachinery's json):
// a number is an int64 when it is an integer, else a float64. spelt holds
// the text of the floats whose spelling Go would not write back (1.0,
// 1e3), so that what the merge leaves alone is written as it was.
func decode(b []byte) (any, map[float64]string, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, nil, err
	}
	spelt := map[float64]string{}
	return numbers(v, spelt), spelt, nil
}

func numbers(v any, spelt map[float64]string) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = numbers(e, spelt)
		}
	case []any:
		for i, e := range v {
			v[i] = numbers(e, spelt)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		if s, seen := spelt[f]; seen && s != v.String() {
			spelt[f] = "" // spelt two ways: Go's spelling
		} else if !seen {
			spelt[f] = v.String()
		}
		return f
	}
	return v
}

// encode writes a merged value as JSON, floats as they were spelt.
func encode(v any, spelt map[float64]string) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(respell(v, spelt)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// respell copies v with the floats spelt as they were; v may share its
// maps with the patch, which stay as they are.
func respell(v any, spelt map[float64]string) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = respell(e, spelt)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = respell(e, spelt)
		}
		return out
	case float64:
		if s := spelt[v]; s != "" {
			return json.Number(s)
		}
	}
	return v
}
