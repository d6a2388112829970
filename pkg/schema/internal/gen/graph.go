package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// List strategies, as schema.ListStrategy.
const (
	replace = iota
	mergeByKeys
	set
)

const objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// node is one type of the merge graph, before pruning.
type node struct {
	name string // definition name; "" for an inline type
	desc string // where an inline type is used, for the generated comment

	isList     bool
	fields     map[string]*node
	elem       *node
	strategy   int
	keys       []string
	defaults   []string // key field, default, ...
	retainKeys bool
	replaceMap bool

	// base, when set, makes this node a copy of base with its own
	// retainKeys/replaceMap: a struct tag on one field must not change the
	// named type every other field shares.
	base *node

	interesting bool // it, or something below it, merges differently from "unknown"
	index       int  // position in the emitted table; 0 = not emitted
}

type kind struct {
	apiVersion, kind, typeName string
}

type graph struct {
	defs    map[string]smdDef    // by name; the first source defining a name wins
	named   map[string]*node     // one node per definition
	structs map[string]*goStruct // Go struct info by schema name
	kinds   []kind
	all     []*node
	errs    []string
}

func newGraph() *graph {
	return &graph{defs: map[string]smdDef{}, named: map[string]*node{}, structs: map[string]*goStruct{}}
}

func (g *graph) newNode(n *node) *node {
	g.all = append(g.all, n)
	return n
}

func (g *graph) errorf(format string, args ...any) {
	g.errs = append(g.errs, fmt.Sprintf(format, args...))
}

// add reads one source: its schema definitions and its Go packages.
func (g *graph) add(defs []smdDef, pkgs map[string]*goPackage) error {
	fresh := g.addDefs(defs)
	for _, p := range pkgs {
		g.addStructs(p)
		g.addKinds(p)
	}
	for _, d := range fresh {
		g.checkStruct(d, pkgs)
		g.fill(g.named[d.Name], d.smdRef, d.Name)
	}
	return g.err()
}

// addDefs records the definitions whose names no earlier source defined,
// and returns them.
func (g *graph) addDefs(defs []smdDef) []smdDef {
	var fresh []smdDef
	for _, d := range defs {
		if _, dup := g.defs[d.Name]; dup {
			continue
		}
		g.defs[d.Name] = d
		g.named[d.Name] = g.newNode(&node{name: d.Name})
		fresh = append(fresh, d)
	}
	return fresh
}

// addStructs records a package's structs, but those an earlier source has.
func (g *graph) addStructs(p *goPackage) {
	for name, s := range p.structs {
		if _, dup := g.structs[p.prefix+"."+name]; !dup {
			g.structs[p.prefix+"."+name] = s
		}
	}
}

// addKinds records the kinds a package registers that are top-level
// resources.
func (g *graph) addKinds(p *goPackage) {
	if p.version == "" {
		return
	}
	apiVersion := p.version
	if p.group != "" {
		apiVersion = p.group + "/" + p.version
	}
	for _, k := range p.kinds {
		name := p.prefix + "." + k
		if d, ok := g.defs[name]; ok && isObject(d) {
			g.kinds = append(g.kinds, kind{apiVersion, k, name})
		}
	}
}

// checkStruct requires the Go source of a struct of a package we read, or
// its struct tags would be silently missed.
func (g *graph) checkStruct(d smdDef, pkgs map[string]*goPackage) {
	prefix := d.Name[:max(strings.LastIndexByte(d.Name, '.'), 0)]
	if _, read := pkgs[prefix]; read && d.Map != nil && len(d.Map.Fields) > 0 && g.structs[d.Name] == nil {
		g.errorf("%s: no Go struct in the sources", d.Name)
	}
}

// err is the errors found so far, one a line.
func (g *graph) err() error {
	if len(g.errs) > 0 {
		return fmt.Errorf("%s", strings.Join(g.errs, "\n"))
	}
	return nil
}

// isObject tells a top-level resource (it has ObjectMeta) from lists and
// options that are registered as kinds too.
func isObject(d smdDef) bool {
	if d.Map == nil {
		return false
	}
	for _, f := range d.Map.Fields {
		if f.Name == "metadata" && f.Type.NamedType == objectMeta {
			return true
		}
	}
	return false
}

// fill turns a definition into n. owner is the definition's name when it is
// a named struct, so that its fields' Go struct tags can be found.
func (g *graph) fill(n *node, r smdRef, owner string) {
	switch {
	case r.Map != nil:
		g.fillMap(n, r, owner)
	case r.List != nil:
		g.fillList(n, r.List)
	}
}

// fillMap makes n a struct (fields) or a map with arbitrary keys (elem).
func (g *graph) fillMap(n *node, r smdRef, owner string) {
	n.fields = map[string]*node{}
	for _, f := range r.Map.Fields {
		n.fields[f.Name] = g.field(owner, f)
	}
	if r.Map.ElementType != nil {
		n.elem = g.ref(*r.Map.ElementType, owner+"[*]")
	}
	if r.List != nil && r.List.Relationship == "associative" {
		g.errorf("%s: both a map and an associative list; not supported", owner)
	}
}

// fillList makes n a list: an associative one merges by its keys, or as a
// set without any.
func (g *graph) fillList(n *node, l *smdList) {
	n.isList = true
	n.elem = g.ref(l.ElementType, n.desc+"[]")
	switch {
	case l.Relationship != "associative":
	case len(l.Keys) > 0:
		g.mergeByKeys(n, l.ElementType, l.Keys)
	default:
		n.strategy = set
	}
}

// ref returns the node of a type reference; an inline type gets a new node.
func (g *graph) ref(r smdRef, desc string) *node {
	if r.NamedType != "" {
		n := g.named[r.NamedType]
		if n == nil {
			g.errorf("%s: unknown type %s", desc, r.NamedType)
		}
		return n
	}
	if r.Map == nil && r.List == nil {
		return nil // a scalar
	}
	n := g.newNode(&node{desc: desc})
	g.fill(n, r, "")
	return n
}

// field converts a struct field. The structured-merge schema decides; the
// strategic-merge struct tags add what it lacks:
//   - a list the schema calls atomic but the tags merge (patchStrategy
//     "merge", e.g. a Job's status conditions) merges, as kubectl patch would;
//   - "retainKeys" marks the map (or, on a list, its elements) RetainKeys;
//   - "replace" on a map (a PodDisruptionBudget's selector) marks ReplaceMap.
func (g *graph) field(owner string, f smdField) *node {
	desc := owner + "." + f.Name
	if owner == "" {
		desc = f.Name
	}
	t := g.ref(f.Type, desc)
	tags := g.goField(owner, f.Name, 0)
	if tags.patchStrategy == "" {
		return t
	}
	strategies := tags.strategies()
	switch {
	case t == nil:
		g.errorf("%s: patchStrategy %q on a scalar", desc, tags.patchStrategy)
		return nil
	case t.isList && t.name != "":
		g.errorf("%s: patchStrategy %q on a named list type; not supported", desc, tags.patchStrategy)
		return t
	case t.isList:
		g.listTags(t, f.Type.List.ElementType, desc, tags, strategies)
		return t
	}
	return g.mapTags(t, desc, strategies)
}

// strategies are the patch strategies a field's tag names.
func (f goField) strategies() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Split(f.patchStrategy, ",") {
		m[s] = true
	}
	return m
}

// mapTags applies a map field's tags: retainKeys and replace mark a copy of
// its type, which other fields share.
func (g *graph) mapTags(t *node, desc string, strategies map[string]bool) *node {
	if strategies["retainKeys"] || strategies["replace"] {
		return g.newNode(&node{base: t, desc: desc, retainKeys: strategies["retainKeys"], replaceMap: strategies["replace"]})
	}
	return t
}

// listTags applies a list field's tags: merge where the schema says atomic,
// retainKeys on its elements.
func (g *graph) listTags(t *node, elem smdRef, desc string, tags goField, strategies map[string]bool) {
	if strategies["merge"] && t.strategy == replace {
		switch {
		case tags.patchMergeKey != "":
			g.mergeByKeys(t, elem, strings.Split(tags.patchMergeKey, ","))
		case g.isScalar(elem):
			t.strategy = set
		default:
			g.errorf("%s: patchStrategy merge without patchMergeKey on a list of maps", desc)
		}
	}
	if strategies["retainKeys"] && t.elem != nil {
		t.elem = g.newNode(&node{base: t.elem, desc: desc + "[]", retainKeys: true})
	}
}

// mergeByKeys makes n a list merged by keys, with the defaults of key fields
// that the API defines (keyDefault).
func (g *graph) mergeByKeys(n *node, elem smdRef, keys []string) {
	n.strategy = mergeByKeys
	n.keys = keys
	n.defaults = nil
	d, ok := g.defs[elem.NamedType]
	if !ok || d.Map == nil {
		g.errorf("%s: merge keys %v on a list whose elements are not a named map", n.desc, keys)
		return
	}
	for _, k := range keys {
		if v, ok := g.keyDefault(d, k); ok {
			n.defaults = append(n.defaults, k, v)
		}
	}
}

// keyDefault is the API default of key field k of the list elements d. The
// structured-merge schema records a default for every field the Go types
// always serialize (the zero value: "", 0), which is not an API default;
// only a +default= marker on the Go field says the API defaults it, and an
// empty default is dropped. The value comes from the schema, so that markers
// written as ref(SomeConstant) resolve, and it is checked against a literal
// marker.
func (g *graph) keyDefault(d smdDef, k string) (string, bool) {
	tags := g.goField(d.Name, k, 0)
	if !tags.hasDefault {
		return "", false
	}
	def, found := schemaDefault(d, k)
	if !found {
		g.errorf("%s.%s: +default=%s but no default in the schema", d.Name, k, tags.defaultMarker)
		return "", false
	}
	v := scalarString(def)
	if v == "" {
		// An empty default (LocalObjectReference.name: "an empty
		// value here is almost certainly wrong") identifies nothing:
		// a patch element leaving the key out is better refused.
		return "", false
	}
	var lit string
	if json.Unmarshal([]byte(tags.defaultMarker), &lit) == nil && lit != v {
		g.errorf("%s.%s: +default=%s but the schema says %q", d.Name, k, tags.defaultMarker, v)
		return "", false
	}
	return v, true
}

// schemaDefault is the default the schema gives field k of d (the last
// field of that name), if any.
func schemaDefault(d smdDef, k string) (any, bool) {
	var def any
	found := false
	for _, f := range d.Map.Fields {
		if f.Name == k {
			def, found = f.Default, f.Default != nil
		}
	}
	return def, found
}

func scalarString(v any) string {
	switch v := v.(type) {
	case string:
		return v // "" for an empty default, or a map or list
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

func (g *graph) isScalar(r smdRef) bool {
	if r.NamedType != "" {
		d := g.defs[r.NamedType]
		return d.Map == nil && d.List == nil
	}
	return r.Map == nil && r.List == nil
}

// goField finds a field's Go tags, looking through embedded inline structs.
func (g *graph) goField(owner, name string, depth int) goField {
	s := g.structs[owner]
	if s == nil || depth > 10 {
		return goField{}
	}
	if f, ok := s.fields[name]; ok {
		return f
	}
	for _, in := range s.inlines {
		if f := g.goField(in, name, depth+1); f != (goField{}) {
			return f
		}
	}
	return goField{}
}

// resolve completes the copies made for field tags and decides, for every
// node, whether it matters to merging: a list merged by keys or as a set, a
// retainKeys or replace map, or a map leading to one. Everything else behaves
// as "unknown" (lists replaced, maps merged) and is left out of the tables.
func (g *graph) resolve() error {
	for _, n := range g.all {
		if b := n.base; b != nil {
			n.isList, n.fields, n.elem = b.isList, b.fields, b.elem
			n.strategy, n.keys, n.defaults = b.strategy, b.keys, b.defaults
		}
	}
	for changed := true; changed; {
		changed = false
		for _, n := range g.all {
			if !n.interesting && n.matters() {
				n.interesting, changed = true, true
			}
		}
	}
	return g.err()
}

func (n *node) matters() bool {
	if n.isList {
		return n.strategy != replace
	}
	return n.retainKeys || n.replaceMap || n.interestingElem() || n.hasInterestingField()
}

// interestingElem reports whether n's elements or values matter.
func (n *node) interestingElem() bool { return n.elem != nil && n.elem.interesting }

func (n *node) hasInterestingField() bool {
	for _, f := range n.fields {
		if f != nil && f.interesting {
			return true
		}
	}
	return false
}

// origin is the node a copy made for field tags (base) stands for.
func (n *node) origin() *node {
	for n != nil && n.base != nil {
		n = n.base
	}
	return n
}
