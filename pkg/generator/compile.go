package generator

import (
	"fmt"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnrun"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/valuemerge"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// The config's entries checked before any runs: each entry on its own
// (checkEntry, checkMergeValues), and the entries together
// (duplicateCreates, claimedNamespaces).

// behaviors are the behaviors a generator may have.
var behaviors = map[string]bool{"create": true, "merge": true, "replace": true}

// behavior is the generator's behavior: create when it names none.
func (a Args) behavior() string {
	if a.Behavior == "" {
		return "create"
	}
	return a.Behavior
}

// checkEntry checks a generator's name, behavior and type, and returns its
// behavior.
func checkEntry(e entry) (string, *framework.Result) {
	a := e.args
	if a.Name == "" {
		return "", fnrun.Errorf(e.where, nil, "name", "a generator needs a name")
	}
	behavior := a.behavior()
	if !behaviors[behavior] {
		return "", fnrun.Errorf(e.where, nil, "behavior", "unknown behavior %q; give create, merge or replace", a.Behavior)
	}
	if e.kind == "ConfigMap" && a.Type != "" {
		return "", fnrun.Errorf(e.where, nil, "type", "type is for secretGenerator entries, not ConfigMaps")
	}
	return behavior, nil
}

// valueRules are a generator's mergeValues by key: how each value merges.
type valueRules map[string]valueRule

type valueRule struct {
	format valuemerge.Format
	keyed  []schema.ListKeys
}

// typ is the schema the declared keys make of a value (compile checked
// them), for explain: true to align the elements of keyed lists.
func (r valueRule) typ() *schema.Type {
	var t *schema.Type
	for _, l := range r.keyed {
		t, _ = t.WithListKeys(l)
	}
	return t
}

// checkMergeValues validates the mergeValues list: the rules of the
// entries that are right, and an error for each of the others.
func checkMergeValues(e entry, behavior string) (valueRules, framework.Results) {
	rules := valueRules{}
	var errs framework.Results
	for i, mv := range e.args.MergeValues {
		where := e.mergeValuesAt(i)
		if behavior != "merge" {
			return nil, framework.Results{fnrun.Errorf(where, nil, "", "mergeValues needs behavior: merge (this generator's behavior is %s)", behavior)}
		}
		rule, res := checkMergeValue(where, mv, rules)
		if res != nil {
			errs = append(errs, res)
			continue
		}
		rules[mv.Key] = rule
	}
	return rules, errs
}

// checkMergeValue checks one mergeValues entry (where) against the rules
// of those before it.
func checkMergeValue(where string, mv MergeValue, rules valueRules) (valueRule, *framework.Result) {
	if mv.Key == "" {
		return valueRule{}, fnrun.Errorf(where, nil, "key", "missing key")
	}
	f, err := valuemerge.ParseFormat(mv.Format)
	if err != nil {
		return valueRule{}, fnrun.Errorf(where, nil, "format", "key %q: %v", mv.Key, err)
	}
	if _, dup := rules[mv.Key]; dup {
		return valueRule{}, fnrun.Errorf(where, nil, "key", "key %q is listed twice", mv.Key)
	}
	keyed, res := checkMergeKeys(where, mv, f)
	return valueRule{format: f, keyed: keyed}, res
}

// checkMergeKeys compiles a mergeValues entry's mergeKeys.
func checkMergeKeys(where string, mv MergeValue, f valuemerge.Format) ([]schema.ListKeys, *framework.Result) {
	if len(mv.MergeKeys) > 0 && !f.HasLists() {
		return nil, fnrun.Errorf(where, nil, "mergeKeys", "key %q: mergeKeys apply to json and yaml values, not %s", mv.Key, f)
	}
	var out []schema.ListKeys
	for j, mk := range mv.MergeKeys {
		field := fmt.Sprintf("mergeKeys[%d]", j)
		if mk.Path == "" {
			return nil, fnrun.Errorf(where, nil, field+".path", "missing path (the field path of the lists to merge by key, such as scrape_configs)")
		}
		p, err := fieldpath.Parse(mk.Path)
		if err != nil {
			return nil, fnrun.Errorf(where, nil, field+".path", "%v", err)
		}
		if len(mk.Keys) == 0 {
			return nil, fnrun.Errorf(where, nil, field+".keys", "missing keys (the fields that identify an element, such as [name])")
		}
		for _, k := range mk.Keys {
			if k == "" {
				return nil, fnrun.Errorf(where, nil, field+".keys", "an empty key")
			}
		}
		l := schema.ListKeys{Path: p, Keys: mk.Keys}
		if _, err := (*schema.Type)(nil).WithListKeys(l); err != nil {
			return nil, fnrun.Errorf(where, nil, field+".path", "%v", err)
		}
		out = append(out, l)
	}
	return out, nil
}

// duplicateCreates refuses two create entries for one kind, namespace and
// name: the second would silently regenerate over the first, whose data
// would be lost. kustomize refuses them too.
func duplicateCreates(es []entry) framework.Results {
	first := map[idKey]entry{}
	var errs framework.Results
	for _, e := range es {
		if e.args.behavior() != "create" || e.args.Name == "" {
			continue
		}
		k := idKey{e.kind, normNS(e.args.Namespace), e.args.Name}
		if f, dup := first[k]; dup {
			errs = append(errs, fnrun.Errorf(e.where, nil, "name",
				"%s is created by %s already; two create entries would overwrite each other (give one behavior merge or replace, or another name)",
				e.describe(), f.where))
			continue
		}
		first[k] = e
	}
	return errs
}

// claimedNamespaces are, by kind and name, the namespaces the config's
// generators name (see run.claimed).
func claimedNamespaces(es []entry) map[genKey]map[string]bool {
	m := map[genKey]map[string]bool{}
	for _, e := range es {
		if e.args.Namespace == "" {
			continue
		}
		k := genKey{e.kind, e.args.Name}
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][normNS(e.args.Namespace)] = true
	}
	return m
}
