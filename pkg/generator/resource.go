package generator

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/generator/kv"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// build makes the resource a generator creates, field by field in the
// order kustomize writes it: apiVersion, kind, metadata (name, namespace,
// labels, annotations), type (Secrets), data, binaryData, immutable. Keys
// are sorted; ConfigMap values that are not UTF-8 go to binaryData; Secret
// values are base64.
func build(e entry, pairs []kv.Pair) (*yaml.RNode, error) {
	res := yaml.NewMapRNode(nil)
	meta := yaml.NewMapRNode(nil)
	fields := []struct {
		name  string
		value *yaml.RNode
	}{
		{"apiVersion", yaml.NewStringRNode("v1")},
		{"kind", yaml.NewStringRNode(e.kind)},
		{"metadata", meta},
	}
	for _, f := range fields {
		if err := res.PipeE(yaml.SetField(f.name, f.value)); err != nil {
			return nil, err
		}
	}
	if err := meta.PipeE(yaml.SetField("name", stringNode(e.args.Name))); err != nil {
		return nil, err
	}
	if e.args.Namespace != "" {
		if err := meta.PipeE(yaml.SetField("namespace", stringNode(e.args.Namespace))); err != nil {
			return nil, err
		}
	}
	if err := setMeta(res, e.opts); err != nil {
		return nil, err
	}
	if e.kind == "Secret" {
		t := e.args.Type
		if t == "" {
			t = "Opaque"
		}
		if err := res.PipeE(yaml.SetField("type", yaml.NewStringRNode(t))); err != nil {
			return nil, err
		}
	}
	if err := fill(res, e.kind, sortPairs(pairs)); err != nil {
		return nil, err
	}
	if e.opts.Immutable {
		if err := res.PipeE(yaml.SetField("immutable", trueNode())); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func sortPairs(pairs []kv.Pair) []kv.Pair {
	out := append([]kv.Pair{}, pairs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// setMeta adds the options' labels and annotations (sorted, each new key
// after the existing ones).
func setMeta(res *yaml.RNode, o Options) error {
	for _, k := range sortedKeys(o.Labels) {
		if err := setMetaKey(res, "labels", k, o.Labels[k]); err != nil {
			return err
		}
	}
	for _, k := range sortedKeys(o.Annotations) {
		if err := setMetaKey(res, "annotations", k, o.Annotations[k]); err != nil {
			return err
		}
	}
	return nil
}

func trueNode() *yaml.RNode {
	return yaml.NewRNode(&yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagBool, Value: "true"})
}

// setMetaKey sets a label or annotation, quoted only where YAML needs it.
func setMetaKey(res *yaml.RNode, field, key, value string) error {
	m, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, "metadata", field))
	if err != nil {
		return err
	}
	setKey(m, key, stringNode(value))
	return nil
}

// fill writes pairs into an empty resource's data (and binaryData).
func fill(res *yaml.RNode, kind string, pairs []kv.Pair) error {
	if kind == "Secret" {
		data, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, "data"))
		if err != nil {
			return err
		}
		for _, p := range pairs {
			setKey(data, p.Key, valueNode(encodeBase64(p.Value)))
		}
		return nil
	}
	for _, p := range pairs {
		field, value := "data", p.Value
		if !isText(value) {
			field, value = "binaryData", encodeBase64(value)
		}
		m, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, field))
		if err != nil {
			return err
		}
		setKey(m, p.Key, valueNode(value))
	}
	return nil
}

// setKey sets a map key, replacing the value node in place (the key keeps
// its position and comments) or appending the key. An equal string value
// is left as written.
func setKey(m *yaml.RNode, key string, v *yaml.RNode) {
	c := m.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			old, nv := c[i+1], v.YNode()
			if old.Kind == yaml.ScalarNode && old.Value == nv.Value && old.ShortTag() == yaml.NodeTagString {
				return
			}
			// Keep how the old value was written (quotes, block style)
			// where the new one can be written so.
			if old.Kind == yaml.ScalarNode && old.Style != 0 && (old.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || !strings.Contains(nv.Value, "\n")) {
				nv.Style = old.Style
			}
			nv.LineComment = old.LineComment
			c[i+1] = nv
			return
		}
	}
	m.YNode().Content = append(c, stringNode(key).YNode(), v.YNode())
}

// deleteKey removes a map key; it reports whether it was there.
func deleteKey(m *yaml.RNode, key string) bool {
	if m == nil {
		return false
	}
	c := m.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			m.YNode().Content = append(c[:i:i], c[i+2:]...)
			return true
		}
	}
	return false
}

func mapField(res *yaml.RNode, name string) *yaml.RNode {
	f := res.Field(name)
	if f == nil || f.Value == nil || f.Value.YNode().Kind != yaml.MappingNode {
		return nil
	}
	return f.Value
}

func stringValue(m *yaml.RNode, key string) (string, bool) {
	if m == nil {
		return "", false
	}
	c := m.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if c[i].Value == key {
			return c[i+1].Value, true
		}
	}
	return "", false
}

// resultError carries an error result (naming entry, resource and
// field) through functions that return errors.
type resultError struct{ r *framework.Result }

func (e resultError) Error() string { return e.r.Message }

// decodeBase64 reads a Secret value, which may be broken into lines.
func decodeBase64(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	return string(b), err
}

// merge merges pairs into res as kustomize's behavior merge does (a key's
// value replaces the old one; labels and annotations are added), except
// that mergeValues keys deep-merge their values.
func merge(e entry, res *yaml.RNode, pairs []kv.Pair, formats valueRules) error {
	if e.kind == "Secret" {
		if err := stringDataIntoData(res); err != nil {
			return err
		}
	}
	index := map[string]int{}
	for i, mv := range e.args.MergeValues {
		index[mv.Key] = i
	}
	data, bin := mapField(res, "data"), mapField(res, "binaryData")
	for _, p := range sortPairs(pairs) {
		value := p.Value
		if rule, ok := formats[p.Key]; ok {
			f := rule.format
			where := fmt.Sprintf("%s.mergeValues[%d]", e.where, index[p.Key])
			base, present := stringValue(data, p.Key)
			field := "data." + p.Key
			if _, inBin := stringValue(bin, p.Key); inBin && !present {
				return resultError{fnrun.Errorf(where, res, "binaryData."+p.Key, "the existing value is binary data, not %s", strings.ToUpper(string(f)))}
			}
			if present && e.kind == "Secret" {
				var err error
				if base, err = decodeBase64(base); err != nil {
					return resultError{fnrun.Errorf(where, res, field, "the existing value is not valid base64: %v", err)}
				}
			}
			if present && !isText(base) {
				return resultError{fnrun.Errorf(where, res, field, "the existing value is not UTF-8 text")}
			}
			merged, err := valuemerge.Merge(f, base, value, rule.keyed...)
			if err != nil {
				return resultError{fnrun.Errorf(where, res, field, "key %q: %v", p.Key, err)}
			}
			value = merged
		}
		if err := setValue(res, e.kind, p.Key, value); err != nil {
			return err
		}
	}
	if err := setMeta(res, e.opts); err != nil {
		return err
	}
	if e.opts.Immutable {
		if err := res.PipeE(yaml.SetField("immutable", trueNode())); err != nil {
			return err
		}
	}
	if e.kind == "Secret" && e.args.Type != "" {
		return res.PipeE(yaml.SetField("type", yaml.NewStringRNode(e.args.Type)))
	}
	return nil
}

// setValue stores one value: in a Secret's data as base64, in a
// ConfigMap's data or (not UTF-8) binaryData, removing the key from the
// other map.
func setValue(res *yaml.RNode, kind, key, value string) error {
	field, other, enc := "data", "binaryData", value
	switch {
	case kind == "Secret":
		enc = encodeBase64(value)
		if cur, ok := stringValue(mapField(res, "data"), key); ok {
			if old, err := decodeBase64(cur); err == nil && old == value {
				return nil // the same value: leave it as written
			}
		}
	case !isText(value):
		field, other, enc = "binaryData", "data", encodeBase64(value)
	}
	m, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, field))
	if err != nil {
		return err
	}
	setKey(m, key, valueNode(enc))
	if kind != "Secret" && deleteKey(mapField(res, other), key) && len(mapField(res, other).YNode().Content) == 0 {
		return res.PipeE(yaml.Clear(other))
	}
	return nil
}

// stringDataIntoData moves a Secret's stringData into data (base64), as
// the API server and kustomize's merge do, so that a merge sees one map.
func stringDataIntoData(res *yaml.RNode) error {
	sd := mapField(res, "stringData")
	if sd == nil {
		return nil
	}
	c := sd.YNode().Content
	for i := 0; i+1 < len(c); i += 2 {
		if err := setValue(res, "Secret", c[i].Value, c[i+1].Value); err != nil {
			return err
		}
	}
	return res.PipeE(yaml.Clear("stringData"))
}

// replace gives res the generator's content in place of its own: data
// and binaryData emptied and filled, the Secret type set (default Opaque),
// immutable as the options say; labels and annotations are added to the
// existing ones, as kustomize does.
func replace(e entry, res *yaml.RNode, pairs []kv.Pair) error {
	for _, f := range []string{"data", "binaryData", "stringData"} {
		if m := mapField(res, f); m != nil {
			m.YNode().Content = nil
		}
	}
	if e.kind == "Secret" {
		t := e.args.Type
		if t == "" {
			t = "Opaque"
		}
		if err := res.PipeE(yaml.SetField("type", yaml.NewStringRNode(t))); err != nil {
			return err
		}
	}
	if err := fill(res, e.kind, sortPairs(pairs)); err != nil {
		return err
	}
	for _, f := range []string{"binaryData", "stringData", "data"} {
		if e.kind == "Secret" && f == "data" {
			continue
		}
		if m := mapField(res, f); m != nil && len(m.YNode().Content) == 0 {
			if err := res.PipeE(yaml.Clear(f)); err != nil {
				return err
			}
		}
	}
	if err := setMeta(res, e.opts); err != nil {
		return err
	}
	if e.opts.Immutable {
		return res.PipeE(yaml.SetField("immutable", trueNode()))
	}
	return res.PipeE(yaml.Clear("immutable"))
}
