package apply

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/apimachinery/pkg/util/managedfields/managedfieldstest"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	smd "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
)

// The differential tests compare package apply's merge (our generated
// tables, our CRD conversion, yaml nodes in and out) with the API
// server's: apimachinery's field manager (managedfields, as the server
// runs it on an apply request, the live object made by another manager's
// update first), typed by client-go's and apiextensions-apiserver's own
// type converters for built-in kinds (diff_builtin_test.go) and by a CRD's
// structural schema for CRDs (diff_crd_test.go). The objects are made from
// the schema: every keyed list with an element both sides have, one only
// the live object has and one only the patch has (a key left out where the
// schema gives it a default), sets that overlap, atomic lists and maps.

// sides is a value of the live object and one of the patch; nil where a
// side has none.
type sides struct{ live, patch any }

// generator makes the two objects of a kind from its structured-merge
// schema.
type generator struct {
	s *smd.Schema
	n int
	// leads memoizes whether a named type leads to something that merges
	// otherwise than deduced: a keyed list, a set, an atomic map.
	leads map[string]bool
}

const maxDepth = 9

func newGenerator(s *smd.Schema) *generator { return &generator{s: s, leads: map[string]bool{}} }

// root makes a kind's objects: its own fields, and metadata with a name
// and the merged parts of ObjectMeta.
func (g *generator) root(ref smd.TypeRef, apiVersion, kind string) sides {
	v := g.value(ref, 0)
	live, _ := v.live.(map[string]any)
	patch, _ := v.patch.(map[string]any)
	if live == nil {
		live = map[string]any{}
	}
	if patch == nil {
		patch = map[string]any{}
	}
	meta := g.metadata()
	for _, m := range []map[string]any{live, patch} {
		m["apiVersion"], m["kind"] = apiVersion, kind
		delete(m, "status") // the API server resets it on the main resource
	}
	live["metadata"], patch["metadata"] = meta.live, meta.patch
	return sides{live, patch}
}

func (g *generator) metadata() sides {
	g.n++
	owner := func(uid string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "o-" + uid, "uid": uid}
	}
	return sides{
		map[string]any{"name": "x", "labels": map[string]any{"a": "1", "b": "1"}, "finalizers": []any{"f/a", "f/b"},
			"ownerReferences": []any{owner("u1"), owner("u2")}},
		map[string]any{"name": "x", "labels": map[string]any{"b": "2", "c": "2"}, "finalizers": []any{"f/b", "f/c"},
			"ownerReferences": []any{map[string]any{"apiVersion": "v1", "kind": "Secret", "name": "o-u2", "uid": "u2"}, owner("u3")}},
	}
}

// value makes both sides of a value of type ref; depth bounds recursion.
func (g *generator) value(ref smd.TypeRef, depth int) sides {
	a, ok := g.s.Resolve(ref)
	switch {
	case !ok || depth > maxDepth:
		return sides{}
	case a.Map != nil && (a.Scalar == nil || len(a.Map.Fields) > 0):
		return g.mapValue(a.Map, depth)
	case a.List != nil && a.Scalar == nil:
		return g.list(a.List, depth)
	case a.Scalar != nil:
		return sides{g.scalar(*a.Scalar, "live"), g.scalar(*a.Scalar, "patch")}
	}
	return sides{}
}

func (g *generator) scalar(s smd.Scalar, side string) any {
	g.n++
	switch s {
	case smd.Numeric:
		return int64(g.n)
	case smd.Boolean:
		return side == "patch"
	}
	return fmt.Sprintf("%s-%d", side, g.n)
}

// mapValue makes a struct's fields that lead somewhere and its first
// scalar field, or a map's keys a (live), b (both) and c (patch).
func (g *generator) mapValue(m *smd.Map, depth int) sides {
	live, patch := map[string]any{}, map[string]any{}
	if len(m.Fields) == 0 {
		if m.ElementType == (smd.TypeRef{}) {
			return sides{}
		}
		for k, on := range map[string][2]bool{"a": {true, false}, "b": {true, true}, "c": {false, true}} {
			v := g.value(m.ElementType, depth+1)
			put(live, k, v.live, on[0])
			put(patch, k, v.patch, on[1])
		}
		return sides{nonEmpty(live), nonEmpty(patch)}
	}
	scalarDone := false
	for _, f := range m.Fields {
		a, _ := g.s.Resolve(f.Type)
		isScalar := a.Scalar != nil && a.Map == nil && a.List == nil
		if isScalar && scalarDone || !isScalar && !g.leadsSomewhere(f.Type, depth) {
			continue
		}
		scalarDone = scalarDone || isScalar
		v := g.value(f.Type, depth+1)
		put(live, f.Name, v.live, true)
		put(patch, f.Name, v.patch, true)
	}
	return sides{nonEmpty(live), nonEmpty(patch)}
}

func put(m map[string]any, k string, v any, on bool) {
	if on && v != nil {
		m[k] = v
	}
}

func nonEmpty(m map[string]any) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// list makes a keyed list's three elements, a set's overlapping values,
// an atomic list's one element a side.
func (g *generator) list(l *smd.List, depth int) sides {
	switch {
	case l.ElementRelationship == smd.Associative && len(l.Keys) > 0:
		return g.keyed(l, depth)
	case l.ElementRelationship == smd.Associative:
		a := g.scalar(smd.String, "set")
		b := g.scalar(smd.String, "set")
		c := g.scalar(smd.String, "set")
		if e, _ := g.s.Resolve(l.ElementType); e.Scalar != nil && *e.Scalar == smd.Numeric {
			a, b, c = int64(g.n-2), int64(g.n-1), int64(g.n)
		}
		return sides{[]any{a, b}, []any{b, c}}
	}
	v := g.value(l.ElementType, depth+1)
	if v.live == nil || v.patch == nil {
		return sides{}
	}
	return sides{[]any{v.live}, []any{v.patch}}
}

// keyed makes a keyed list: an element on both sides, one only live, one
// only in the patch, which leaves out the key fields the schema defaults.
func (g *generator) keyed(l *smd.List, depth int) sides {
	a, _ := g.s.Resolve(l.ElementType)
	if a.Map == nil {
		return sides{}
	}
	var live, patch []any
	for i, on := range [][2]bool{{true, true}, {true, false}, {false, true}} {
		v := g.mapValue(a.Map, depth+1)
		lm, _ := v.live.(map[string]any)
		pm, _ := v.patch.(map[string]any)
		lm, pm = orEmpty(lm), orEmpty(pm)
		for j, k := range l.Keys {
			f, _ := a.Map.FindField(k)
			ka, _ := g.s.Resolve(f.Type)
			kv := g.keyValue(ka, i)
			lm[k], pm[k] = kv, kv
			if i == 2 && j > 0 && f.Default != nil {
				delete(pm, k) // the default stands in
			}
		}
		if on[0] {
			live = append(live, lm)
		}
		if on[1] {
			patch = append(patch, pm)
		}
	}
	return sides{live, patch}
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// keyValue is the value of a key field of element i: distinct per element.
func (g *generator) keyValue(a smd.Atom, i int) any {
	if a.Scalar != nil && *a.Scalar == smd.Numeric {
		return int64(1000*(g.n+1) + i)
	}
	g.n++
	return fmt.Sprintf("k%d-%d", g.n, i)
}

// leadsSomewhere says whether a type, within the depth left, holds
// something that merges otherwise than deduced.
func (g *generator) leadsSomewhere(ref smd.TypeRef, depth int) bool {
	if depth > maxDepth {
		return false
	}
	if ref.ElementRelationship != nil {
		return true
	}
	name := ""
	if ref.NamedType != nil {
		name = *ref.NamedType
		if v, ok := g.leads[name]; ok {
			return v
		}
		g.leads[name] = false // a type inside itself leads nowhere new
	}
	a, _ := g.s.Resolve(ref)
	v := g.atomLeads(a, depth)
	if name != "" {
		g.leads[name] = v
	}
	return v
}

func (g *generator) atomLeads(a smd.Atom, depth int) bool {
	switch {
	case a.List != nil && a.Scalar == nil:
		return a.List.ElementRelationship == smd.Associative || g.leadsSomewhere(a.List.ElementType, depth+1)
	case a.Map != nil && a.Scalar == nil:
		if a.Map.ElementRelationship == smd.Atomic {
			return true
		}
		for _, f := range a.Map.Fields {
			if g.leadsSomewhere(f.Type, depth+1) {
				return true
			}
		}
		return a.Map.ElementType != (smd.TypeRef{}) && g.leadsSomewhere(a.Map.ElementType, depth+1)
	}
	return false
}

// outcome is what compare found.
type outcome int

const (
	agreeChanged outcome = iota // the same result, which differs from the live object
	agreeUnchanged
	bothRefused // both refused the objects: the generator made something invalid
	differ
)

// compare merges both sides with package apply's typ and with the field
// manager tc types with; the message says how they differ, or why both
// refused.
func compare(tc managedfields.TypeConverter, gvk schema.GroupVersionKind, typ Type, v sides) (outcome, string) {
	ours, ourErr := mergeOurs(v, typ)
	theirs, theirErr := mergeTheirs(tc, gvk, v)
	switch {
	case ourErr != nil && theirErr != nil:
		return bothRefused, fmt.Sprintf("ours: %v\ntheirs: %v", ourErr, theirErr)
	case ourErr != nil || theirErr != nil:
		return differ, fmt.Sprintf("ours: %v\ntheirs: %v\nlive:\n%s\npatch:\n%s", ourErr, theirErr, show(v.live), show(v.patch))
	case !reflect.DeepEqual(ours, theirs):
		return differ, fmt.Sprintf("ours:\n%s\ntheirs:\n%s\npatch:\n%s", show(ours), show(theirs), show(v.patch))
	case reflect.DeepEqual(ours, normal(v.live)):
		return agreeUnchanged, ""
	}
	return agreeChanged, ""
}

// mergeOurs merges through yaml nodes, as a run does.
func mergeOurs(v sides, typ Type) (any, error) {
	dst, err := yaml.Parse(show(v.live))
	if err != nil {
		return nil, err
	}
	pn, err := yaml.Parse(show(v.patch))
	if err != nil {
		return nil, err
	}
	p, err := ParsePatch(pn)
	if err != nil {
		return nil, err
	}
	if err := p.Merge(dst, typ, nil); err != nil {
		return nil, err
	}
	b, err := yamljson.Encode(dst.YNode(), nil)
	if err != nil {
		return nil, err
	}
	var out any
	return out, json.Unmarshal(b, &out)
}

// mergeTheirs applies the patch as the API server does: the live object
// created by one manager, the patch applied (forced) by another.
func mergeTheirs(tc managedfields.TypeConverter, gvk schema.GroupVersionKind, v sides) (any, error) {
	fm := managedfieldstest.NewTestFieldManager(tc, gvk)
	live := &unstructured.Unstructured{Object: normal(v.live).(map[string]any)}
	if err := fm.Update(live, "creator"); err != nil {
		return nil, fmt.Errorf("update: %w", err)
	}
	if err := fm.Apply(&unstructured.Unstructured{Object: normal(v.patch).(map[string]any)}, "patchwork", true); err != nil {
		return nil, err
	}
	out := fm.Live().(*unstructured.Unstructured).Object
	meta, _ := out["metadata"].(map[string]any)
	delete(meta, "managedFields")
	return normal(out), nil
}

// normal is v as JSON reads it back: the form both results are compared in.
func normal(v any) any {
	var out any
	if err := json.Unmarshal([]byte(show(v)), &out); err != nil {
		panic(err)
	}
	return out
}

func show(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

// kindsReport lists some names, for failure messages.
func kindsReport(names map[string]bool) string {
	s := slices.Sorted(maps.Keys(names))
	if len(s) > 10 {
		s = append(s[:10], fmt.Sprintf("and %d more", len(s)-10))
	}
	return strings.Join(s, ", ")
}
