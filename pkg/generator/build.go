package generator

import (
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/patchwork-krm/patchwork/pkg/kv"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// build makes the resource a generator creates, field by field in the
// order kustomize writes it: apiVersion, kind, metadata (name, namespace,
// labels, annotations), type (Secrets), data, binaryData, immutable. Keys
// are sorted; ConfigMap values that are not UTF-8 go to binaryData; Secret
// values are base64.
func build(e entry, pairs []kv.Pair) (*yaml.RNode, error) {
	res, err := header(e)
	if err != nil {
		return nil, err
	}
	if err := setSecretType(res, e); err != nil {
		return nil, err
	}
	if err := fill(res, e.kind, sortPairs(pairs)); err != nil {
		return nil, err
	}
	return res, applyOptions(res, e.opts)
}

// header is a resource with apiVersion, kind and metadata: name and, when
// the generator names one, namespace.
func header(e entry) (*yaml.RNode, error) {
	type field struct {
		in    *yaml.RNode
		name  string
		value *yaml.RNode
	}
	res := yaml.NewMapRNode(nil)
	meta := yaml.NewMapRNode(nil)
	fields := []field{
		{res, "apiVersion", yaml.NewStringRNode("v1")},
		{res, "kind", yaml.NewStringRNode(e.kind)},
		{res, "metadata", meta},
		{meta, "name", stringNode(e.args.Name)},
	}
	if e.args.Namespace != "" {
		fields = append(fields, field{meta, "namespace", stringNode(e.args.Namespace)})
	}
	for _, f := range fields {
		if err := f.in.PipeE(yaml.SetField(f.name, f.value)); err != nil {
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

// setSecretType sets a Secret's type, Opaque when the generator names none;
// a ConfigMap has none.
func setSecretType(res *yaml.RNode, e entry) error {
	if e.kind != "Secret" {
		return nil
	}
	t := e.args.Type
	if t == "" {
		t = "Opaque"
	}
	return res.PipeE(yaml.SetField("type", yaml.NewStringRNode(t)))
}

// fill writes pairs into a resource's data (and binaryData), empty or
// emptied. A Secret has data even without a pair, as kustomize writes it.
func fill(res *yaml.RNode, kind string, pairs []kv.Pair) error {
	if kind == "Secret" {
		if _, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, "data")); err != nil {
			return err
		}
	}
	for _, p := range pairs {
		field, _, text := placeValue(kind, p.Value)
		m, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, field))
		if err != nil {
			return err
		}
		setKey(m, p.Key, valueNode(text))
	}
	return nil
}

// placeValue says where a value goes and how it is written there: a
// Secret's in data as base64; a ConfigMap's in data when it is UTF-8 text,
// else in binaryData as base64. other is the map the key must then leave
// ("" for a Secret, which has one).
func placeValue(kind, value string) (field, other, text string) {
	switch {
	case kind == "Secret":
		return "data", "", encodeBase64(value)
	case !isText(value):
		return "binaryData", "data", encodeBase64(value)
	}
	return "data", "binaryData", value
}

// applyOptions adds the options' labels and annotations and, when they say
// so, immutable: true.
func applyOptions(res *yaml.RNode, o Options) error {
	if err := setMeta(res, o); err != nil {
		return err
	}
	if o.Immutable {
		return res.PipeE(yaml.SetField("immutable", trueNode()))
	}
	return nil
}

// setMeta adds the options' labels and annotations (sorted, each new key
// after the existing ones).
func setMeta(res *yaml.RNode, o Options) error {
	for _, field := range []struct {
		name string
		m    map[string]string
	}{{"labels", o.Labels}, {"annotations", o.Annotations}} {
		for _, k := range slices.Sorted(maps.Keys(field.m)) {
			if err := setMetaKey(res, field.name, k, field.m[k]); err != nil {
				return err
			}
		}
	}
	return nil
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

// keepToolAnnotations copies kpt's and kustomize's bookkeeping annotations
// (file path, index, ids) from the resource being regenerated.
func keepToolAnnotations(from, to *yaml.RNode) {
	ann := from.GetAnnotations()
	for _, k := range slices.Sorted(maps.Keys(ann)) {
		if isToolAnnotation(k) {
			_ = setMetaKey(to, "annotations", k, ann[k])
		}
	}
}

func isToolAnnotation(k string) bool {
	return strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") ||
		strings.HasPrefix(k, "kustomize.config.k8s.io/") || k == "config.k8s.io/id"
}
