package generator

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	fnentry "github.com/patchwork-krm/patchwork/pkg/entry"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/kv"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// merge merges pairs into res as kustomize's behavior merge does (a key's
// value replaces the old one; labels and annotations are added), except
// that mergeValues keys deep-merge their values; step is told of the
// values merged as documents, warn receives what a merged value lost of
// the old one's text.
func merge(e entry, res *yaml.RNode, pairs []kv.Pair, formats valueRules, step *fnentry.Step, warn func(*framework.Result)) error {
	if e.kind == "Secret" {
		if err := stringDataIntoData(res); err != nil {
			return err
		}
	}
	if err := mergePairs(e, res, pairs, formats, step, warn); err != nil {
		return err
	}
	if err := applyOptions(res, e.opts); err != nil {
		return err
	}
	if e.kind == "Secret" && e.args.Type != "" {
		return res.PipeE(yaml.SetField("type", yaml.NewStringRNode(e.args.Type)))
	}
	return nil
}

// mergePairs sets each pair's value in res, in key order; step is told of
// the JSON and YAML values merged, documents it explains inside. A value
// that does not merge is left as it was, and its error joined with the
// others' (res is not written when there is one).
func mergePairs(e entry, res *yaml.RNode, pairs []kv.Pair, formats valueRules, step *fnentry.Step, warn func(*framework.Result)) error {
	var errs []error
	for _, p := range sortPairs(pairs) {
		value, err := mergedValue(e, res, p, formats, warn)
		if err == nil {
			err = setValue(res, e.kind, p.Key, value)
		}
		if rule := formats[p.Key]; err == nil && (rule.format == valuemerge.JSON || rule.format == valuemerge.YAML) {
			if data := mapField(res, "data"); data != nil {
				step.Document(yamltree.Lookup(data.YNode(), p.Key), rule.typ())
			}
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// mergedValue is the value a pair leaves in res: its own or, for a
// mergeValues key, the existing value with it deep-merged in, and a
// warning to warn when that loses what the existing value's text had (a
// TOML merge written whole: why names a place in the value, so a
// Secret's warning leaves it out) or when a declared list path leads to
// no list in the merged value (the lists it meant were replaced whole).
func mergedValue(e entry, res *yaml.RNode, p kv.Pair, formats valueRules, warn func(*framework.Result)) (string, error) {
	rule, ok := formats[p.Key]
	if !ok {
		return p.Value, nil
	}
	f, value := rule.format, p.Value
	where := e.mergeValuesAt(slices.IndexFunc(e.args.MergeValues, func(mv MergeValue) bool { return mv.Key == p.Key }))
	base, err := existingValue(e.kind, res, p.Key, where, f)
	if err != nil {
		return "", err
	}
	merged, err := valuemerge.MergeLists(f, base, value, rule.keyed, e.kind == "Secret")
	if err != nil {
		return "", resultError{fnrun.Errorf(where, res, "data."+p.Key, "key %q: %v", p.Key, err)}
	}
	if merged.Lost != "" {
		why := " (" + merged.Why + ")"
		if e.kind == "Secret" {
			why = ""
		}
		warn(fnrun.Warningf(where, res, "data."+p.Key, "key %q: %s%s", p.Key, merged.Lost, why))
	}
	unreached(where, res, p.Key, rule.keyed, merged.Reaches, warn)
	return merged.Text, nil
}

// unreached warns of each declared list path (keyed) of a mergeValues
// key that leads to no list in the merged value (reaches): the lists it
// meant were replaced whole.
func unreached(where string, res *yaml.RNode, key string, keyed []schema.ListKeys, reaches []schema.Reach, warn func(*framework.Result)) {
	for j, r := range reaches {
		if r.Lists > 0 {
			continue
		}
		warn(fnrun.Warningf(fmt.Sprintf("%s.mergeKeys[%d]", where, j), res, "data."+key,
			"key %q: the path %s leads to no list in the merged value: %s; no list merges by [%s], and the overlay's lists replace the base's whole",
			key, keyed[j].Path, r.Why, strings.Join(keyed[j].Keys, ", ")))
	}
}

// existingValue is the text of the value res holds for a mergeValues key
// (where), "" when it holds none. A value in binaryData, a Secret's value
// that is not base64, and one that is not UTF-8 text cannot take a merge.
func existingValue(kind string, res *yaml.RNode, key, where string, f valuemerge.Format) (string, error) {
	base, present := stringValue(mapField(res, "data"), key)
	if !present {
		if _, inBin := stringValue(mapField(res, "binaryData"), key); inBin {
			return "", resultError{fnrun.Errorf(where, res, "binaryData."+key, "the existing value is binary data, not %s", strings.ToUpper(string(f)))}
		}
		return "", nil
	}
	field := "data." + key
	if kind == "Secret" {
		var err error
		if base, err = decodeBase64(base); err != nil {
			return "", resultError{fnrun.Errorf(where, res, field, "the existing value is not valid base64: %v", err)}
		}
	}
	if !isText(base) {
		return "", resultError{fnrun.Errorf(where, res, field, "the existing value is not UTF-8 text")}
	}
	return base, nil
}

// resultError carries an error result (naming entry, resource and
// field) through functions that return errors.
type resultError struct{ r *framework.Result }

func (e resultError) Error() string { return e.r.Message }

// setValue stores one value where placeValue says, removing the key from
// the other map. A Secret's value equal to the one there is left as
// written.
func setValue(res *yaml.RNode, kind, key, value string) error {
	if kind == "Secret" && sameSecretValue(res, key, value) {
		return nil
	}
	field, other, text := placeValue(kind, value)
	m, err := res.Pipe(yaml.LookupCreate(yaml.MappingNode, field))
	if err != nil {
		return err
	}
	setKey(m, key, valueNode(text))
	if other != "" && deleteKey(mapField(res, other), key) {
		return clearIfEmpty(res, other)
	}
	return nil
}

// sameSecretValue reports whether a Secret's data holds value for key,
// however its base64 is broken into lines.
func sameSecretValue(res *yaml.RNode, key, value string) bool {
	cur, ok := stringValue(mapField(res, "data"), key)
	if !ok {
		return false
	}
	old, err := decodeBase64(cur)
	return err == nil && old == value
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
