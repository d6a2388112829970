package generator

import (
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// replace gives res the generator's content in place of its own: data
// and binaryData emptied and filled, the Secret type set (default Opaque),
// immutable as the options say; labels and annotations are added to the
// existing ones, as kustomize does.
func replace(e entry, res *yaml.RNode, pairs []kv.Pair) error {
	emptyData(res)
	if err := setSecretType(res, e); err != nil {
		return err
	}
	if err := fill(res, e.kind, sortPairs(pairs)); err != nil {
		return err
	}
	if err := clearEmptyData(res, e.kind); err != nil {
		return err
	}
	if err := applyOptions(res, e.opts); err != nil {
		return err
	}
	if e.opts.Immutable {
		return nil
	}
	return res.PipeE(yaml.Clear("immutable"))
}

// emptyData empties data, binaryData and stringData, keeping their places
// for fill.
func emptyData(res *yaml.RNode) {
	for _, f := range []string{"data", "binaryData", "stringData"} {
		if m := mapField(res, f); m != nil {
			m.YNode().Content = nil
		}
	}
}

// clearEmptyData removes the data maps a replace left empty; a Secret
// keeps its data, as kustomize writes it.
func clearEmptyData(res *yaml.RNode, kind string) error {
	for _, f := range []string{"binaryData", "stringData", "data"} {
		if kind == "Secret" && f == "data" {
			continue
		}
		if err := clearIfEmpty(res, f); err != nil {
			return err
		}
	}
	return nil
}

// clearIfEmpty removes the map field f when it has no key.
func clearIfEmpty(res *yaml.RNode, f string) error {
	if m := mapField(res, f); m != nil && len(m.YNode().Content) == 0 {
		return res.PipeE(yaml.Clear(f))
	}
	return nil
}
