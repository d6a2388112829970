package schema

import (
	"fmt"
	"maps"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

const objectMetaName = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// maxSchemaDepth bounds the nesting of a CRD schema we walk. Real schemas
// stay far below it (a pod template embedded in a custom resource is about
// 25 levels deep).
const maxSchemaDepth = 200

// WithCRDs returns a Schema that also knows the custom resources defined by
// the CustomResourceDefinitions (apiextensions.k8s.io/v1) among items, one
// root Type per served version (a version without "served" counts as served:
// its schema is still the best knowledge). The receiver is not modified;
// without CRDs among items it is returned as is.
//
// A version's openAPIV3Schema is read as follows:
//   - x-kubernetes-patch-strategy "replace" on a list: Replace;
//   - x-kubernetes-list-type: map with x-kubernetes-list-map-keys: MergeByKeys,
//     set: Set (atomic, or none: see the next rule);
//   - x-kubernetes-patch-strategy "merge" with x-kubernetes-patch-merge-key
//     (several fields separated by ","): MergeByKeys; without a merge key on a
//     list of scalars: Set;
//   - any other list: Replace;
//   - the default: of a merge-key property (when not empty) is its KeyDefault;
//   - x-kubernetes-patch-strategy "retainKeys" marks the object, or a list's
//     elements, RetainKeys; "replace" on an object marks it ReplaceMap;
//   - additionalProperties gives the value type of a map (Elem);
//   - an object without properties (x-kubernetes-preserve-unknown-fields,
//     x-kubernetes-embedded-resource) is unknown: nil; with properties, those
//     are known and the rest unknown.
//
// metadata is always the built-in ObjectMeta, as the API server has it.
// A malformed CRD is an error naming it and the offending field.
//
// A CRD may add kinds but never redefine one the receiver knows: a CRD named
// deployments.apps declaring containers atomic would otherwise make an image
// patch drop every other container. A CRD defining a kind whose group and
// kind the receiver knows (at any version) is left out, and returned among
// the ignored CRDs for the caller to warn about.
func (s *Schema) WithCRDs(items []*yaml.RNode) (*Schema, []IgnoredCRD, error) {
	x := &crdExtension{base: s, definedBy: map[kindKey]string{}, meta: s.Named(objectMetaName)}
	for _, item := range items {
		if !IsCRD(item) {
			continue
		}
		if err := x.add(item); err != nil {
			return nil, nil, err
		}
	}
	if x.ext == nil {
		return s, x.ignored, nil
	}
	return x.ext, x.ignored, nil
}

// crdExtension is what WithCRDs builds: the Schema of the CRDs' kinds over
// base, made for the first CRD that adds one, and the CRDs left out.
type crdExtension struct {
	base, ext *Schema
	ignored   []IgnoredCRD
	definedBy map[kindKey]string // the CRD defining each kind
	meta      *Type              // ObjectMeta
}

// add reads one CRD's kinds into ext, unless one of them is a kind base
// knows.
func (x *crdExtension) add(item *yaml.RNode) error {
	name := CRDName(item)
	kinds, err := crdKinds(item.YNode(), x.meta)
	if err != nil {
		return fmt.Errorf("CustomResourceDefinition %q: %w", name, err)
	}
	if k, ok := x.base.redefines(kinds); ok {
		x.ignored = append(x.ignored, IgnoredCRD{CRD: item, Kind: k})
		return nil
	}
	if x.ext == nil {
		x.ext = &Schema{kinds: map[kindKey]*Type{}, base: x.base}
	}
	for _, k := range kinds {
		if other, ok := x.definedBy[k.key]; ok && other != name {
			return fmt.Errorf("CustomResourceDefinition %q: %s %s is also defined by CustomResourceDefinition %q",
				name, k.key.apiVersion, k.key.kind, other)
		}
		x.definedBy[k.key] = name
		x.ext.kinds[k.key] = k.root
	}
	x.ext.addCRDShapes(item.YNode()) // field names, for typos in patches: crdshape.go
	x.ext.addCRDRules(item.YNode())  // what values may be, for validate: crdrules.go
	return nil
}

// IgnoredCRD is a CustomResourceDefinition WithCRDs left out because it
// redefines a kind already known.
type IgnoredCRD struct {
	CRD *yaml.RNode
	// Kind is the known kind it redefines, as "apps/v1 Deployment".
	Kind string
}

func (ic IgnoredCRD) String() string {
	return fmt.Sprintf("CustomResourceDefinition %q is ignored: %s is a built-in kind, whose merge rules a CRD may not replace",
		CRDName(ic.CRD), ic.Kind)
}

// redefines reports the first of kinds whose group and kind s (or its base)
// already knows, at any version.
func (s *Schema) redefines(kinds []crdKind) (string, bool) {
	for _, k := range kinds {
		group := groupOf(k.key.apiVersion)
		for b := s; b != nil; b = b.base {
			for known := range b.kinds {
				if known.kind == k.key.kind && groupOf(known.apiVersion) == group {
					return k.key.apiVersion + " " + k.key.kind, true
				}
			}
		}
	}
	return "", false
}

// groupOf returns the group of an apiVersion ("" for the core group "v1").
func groupOf(apiVersion string) string {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// IsCRD says an item is an apiextensions.k8s.io/v1 CustomResourceDefinition.
func IsCRD(item *yaml.RNode) bool {
	n := item.YNode()
	return n != nil && n.Kind == yaml.MappingNode &&
		scalar(field(n, "apiVersion")) == "apiextensions.k8s.io/v1" &&
		scalar(field(n, "kind")) == "CustomResourceDefinition"
}

// CRDName is metadata.name, read without kyaml's getters, which panic on a
// metadata that is not a map (the runner refuses such items, but this
// package is also used on its own).
func CRDName(item *yaml.RNode) string {
	return scalar(field(field(item.YNode(), "metadata"), "name"))
}

type crdKind struct {
	key  kindKey
	root *Type
}

// crdKinds reads the served versions of one CRD.
func crdKinds(crd *yaml.Node, meta *Type) ([]crdKind, error) {
	versions, err := CRDVersions(crd)
	if err != nil {
		return nil, err
	}
	var kinds []crdKind
	w := newWalker(nil)
	for _, v := range versions {
		var t *Type
		if v.Schema != nil {
			if t, err = w.walk(v.Schema, v.Path+".schema.openAPIV3Schema", 0); err != nil {
				return nil, err
			}
		}
		kinds = append(kinds, crdKind{kindKey{v.APIVersion, v.Kind}, rootType(t, meta)})
	}
	return kinds, nil
}

// CRDVersion is a served version of a CustomResourceDefinition.
type CRDVersion struct {
	// APIVersion and Kind are those of its resources: example.com/v1 Widget.
	APIVersion, Kind string
	// Schema is its openAPIV3Schema; nil when it has none.
	Schema *yaml.Node
	// Path is where it is in the CRD, for messages: spec.versions[1].
	Path string
}

// CRDVersions reads the served versions of a CRD (apiextensions.k8s.io/v1),
// which must have a group, a kind and versions with names.
func CRDVersions(crd *yaml.Node) ([]CRDVersion, error) {
	group, kind, versions, err := crdNames(crd)
	if err != nil {
		return nil, err
	}
	var out []CRDVersion
	for i, v := range versions {
		path := fmt.Sprintf("spec.versions[%d]", i)
		v = yamltree.Resolve(v)
		if v == nil || v.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s: want a map", path)
		}
		version, err := requiredString(v, path, "name")
		if err != nil {
			return nil, err
		}
		if served(v) {
			out = append(out, CRDVersion{group + "/" + version, kind, field(field(v, "schema"), "openAPIV3Schema"), path})
		}
	}
	return out, nil
}

// crdNames reads a CRD's group, kind and versions, which it must have.
func crdNames(crd *yaml.Node) (group, kind string, versions []*yaml.Node, err error) {
	spec := field(crd, "spec")
	if group, err = requiredString(spec, "spec", "group"); err != nil {
		return "", "", nil, err
	}
	if kind, err = requiredString(field(spec, "names"), "spec.names", "kind"); err != nil {
		return "", "", nil, err
	}
	vs := field(spec, "versions")
	if vs == nil || vs.Kind != yaml.SequenceNode || len(vs.Content) == 0 {
		return "", "", nil, fmt.Errorf("spec.versions: want a non-empty list")
	}
	return group, kind, vs.Content, nil
}

// served reports whether a CRD version is served: a version without
// "served" counts as served, its schema still the best knowledge.
func served(v *yaml.Node) bool { return scalar(field(v, "served")) != "false" }

// rootType is the root Type of a kind whose schema converts to t (nil when
// nothing merges differently: still a known kind): a copy, since t may be
// shared through YAML aliases, whose metadata is meta, the built-in
// ObjectMeta, as the API server has it.
func rootType(t, meta *Type) *Type {
	root := &Type{}
	if t != nil {
		*root = *t
	}
	if meta != nil {
		fields := make(map[string]*Type, len(root.Fields)+1)
		maps.Copy(fields, root.Fields)
		fields["metadata"] = meta
		root.Fields = fields
	}
	return root
}

// walker converts the schemas of one CRD, or of one OpenAPI document. YAML
// aliases can make a schema node appear many times, or inside itself: each
// node is converted once (the Types are read-only, so sharing them is safe)
// and a node inside itself is an error.
type walker struct {
	memo[*Type]
	// refs resolves the $ref of an OpenAPI document (openapi.go); nil in
	// a CRD, whose schemas have none.
	refs *refResolver
}

func newWalker(refs *refResolver) walker {
	return walker{memo: newMemo[*Type](), refs: refs}
}

// walk converts one JSON schema node. It returns nil when nothing below the
// node merges differently from "unknown" (lists replaced, maps merged).
func (w *walker) walk(n *yaml.Node, path string, depth int) (*Type, error) {
	if depth > maxSchemaDepth {
		return nil, fmt.Errorf("%s: schema nested more than %d levels", path, maxSchemaDepth)
	}
	n = yamltree.Resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: want a schema (a map)", path)
	}
	n, inside, err := w.follow(n, path)
	if err != nil || inside {
		return nil, err
	}
	return w.once(n,
		func() (*Type, error) { return w.convert(n, path, depth) },
		func() (*Type, error) {
			return nil, fmt.Errorf("%s: the schema contains itself (through a YAML alias)", path)
		})
}

// follow resolves n's $ref in an OpenAPI document. A definition inside
// itself (JSONSchemaProps) is known where the definition is, not here:
// inside says so.
func (w *walker) follow(n *yaml.Node, path string) (target *yaml.Node, inside bool, err error) {
	if w.refs == nil {
		return n, false, nil
	}
	if target, err = w.refs.resolve(n, path); err != nil {
		return nil, false, err
	}
	return target, target != n && w.active[target], nil
}

// memo converts each schema node once: a node met again is what it was
// converted to, and one met inside itself is what inside says.
type memo[T any] struct {
	done   map[*yaml.Node]T
	active map[*yaml.Node]bool
}

func newMemo[T any]() memo[T] {
	return memo[T]{done: map[*yaml.Node]T{}, active: map[*yaml.Node]bool{}}
}

func (m *memo[T]) once(n *yaml.Node, convert, inside func() (T, error)) (T, error) {
	if t, ok := m.done[n]; ok {
		return t, nil
	}
	if m.active[n] {
		return inside()
	}
	m.active[n] = true
	t, err := convert()
	delete(m.active, n)
	if err == nil {
		m.done[n] = t
	}
	return t, err
}

// convert converts a schema: a list's, or an object's properties and
// additionalProperties (the value type of a map).
func (w *walker) convert(n *yaml.Node, path string, depth int) (*Type, error) {
	strategies, err := patchStrategies(n, path)
	if err != nil {
		return nil, err
	}
	if items := field(n, "items"); items != nil {
		return w.list(n, items, strategies, path, depth)
	}
	t := &Type{RetainKeys: strategies["retainKeys"], ReplaceMap: strategies["replace"]}
	if err := w.properties(t, n, path, depth); err != nil {
		return nil, err
	}
	if ap := additionalProperties(n); ap != nil {
		if t.Elem, err = w.walk(ap, path+".additionalProperties", depth+1); err != nil {
			return nil, err
		}
	}
	if t.unknown() {
		return nil, nil
	}
	return t, nil
}

// unknown reports whether an object's Type merges as "unknown" does.
func (t *Type) unknown() bool {
	return t.Fields == nil && t.Elem == nil && !t.RetainKeys && !t.ReplaceMap
}

// additionalProperties is the schema of a map's values, or nil (none, or
// the boolean form).
func additionalProperties(n *yaml.Node) *yaml.Node {
	if ap := field(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode {
		return ap
	}
	return nil
}

// properties converts an object's properties into t's Fields: those whose
// Type is not nil.
func (w *walker) properties(t *Type, n *yaml.Node, path string, depth int) error {
	props := field(n, "properties")
	if props == nil {
		return nil
	}
	if props.Kind != yaml.MappingNode {
		return fmt.Errorf("%s.properties: want a map", path)
	}
	for i := 0; i+1 < len(props.Content); i += 2 {
		name := props.Content[i].Value
		ft, err := w.walk(props.Content[i+1], path+".properties."+name, depth+1)
		if err != nil {
			return err
		}
		if ft != nil {
			if t.Fields == nil {
				t.Fields = map[string]*Type{}
			}
			t.Fields[name] = ft
		}
	}
	return nil
}

func (w *walker) list(n, items *yaml.Node, strategies map[string]bool, path string, depth int) (*Type, error) {
	elem, err := w.walk(items, path+".items", depth+1)
	if err != nil {
		return nil, err
	}
	if w.refs != nil {
		// the keys are properties of what items refers to
		if items, err = w.refs.resolve(yamltree.Resolve(items), path+".items"); err != nil {
			return nil, err
		}
	}
	t := &Type{Elem: elem}
	if err := t.listStrategy(n, items, strategies, path); err != nil {
		return nil, err
	}
	if strategies["retainKeys"] {
		t.Elem = retainKeysElem(t.Elem)
	} else if t.Strategy == Replace {
		return nil, nil // elements of a replaced list do not matter
	}
	return t, nil
}

// listStrategy sets how the list merges, as WithCRDs says.
func (t *Type) listStrategy(n, items *yaml.Node, strategies map[string]bool, path string) error {
	listType := scalar(field(n, "x-kubernetes-list-type"))
	switch {
	case strategies["replace"]:
	case listType == "map":
		keys, err := stringList(field(n, "x-kubernetes-list-map-keys"), path+".x-kubernetes-list-map-keys")
		if err != nil {
			return err
		}
		return t.mergeByKeys(keys, items, path)
	case listType == "set":
		t.Strategy = Set
	case listType != "" && listType != "atomic":
		return fmt.Errorf("%s.x-kubernetes-list-type: unknown type %q (want atomic, set or map)", path, listType)
	case strategies["merge"]:
		return t.patchMerge(n, items, path)
	}
	return nil
}

// patchMerge reads x-kubernetes-patch-strategy merge on a list: merged by
// its merge key's fields, or a list of scalars as a set. Without a merge
// key, a list of objects cannot identify its elements: it stays Replace.
func (t *Type) patchMerge(n, items *yaml.Node, path string) error {
	mergeKey := scalar(field(n, "x-kubernetes-patch-merge-key"))
	switch {
	case mergeKey != "":
		return t.mergeByKeys(strings.Split(mergeKey, ","), items, path)
	case isScalarSchema(items):
		t.Strategy = Set
	}
	return nil
}

// retainKeysElem is the element Type of a list whose patch strategy is
// retainKeys: elem marked RetainKeys, a copy since it may be shared.
func retainKeysElem(elem *Type) *Type {
	e := &Type{}
	if elem != nil {
		*e = *elem
	}
	e.RetainKeys = true
	return e
}

// mergeByKeys makes t a list merged by keys, which must be properties of the
// elements; a key property's non-empty default is its KeyDefault.
func (t *Type) mergeByKeys(keys []string, items *yaml.Node, path string) error {
	if len(keys) == 0 {
		return fmt.Errorf("%s: a list merged by keys needs at least one key", path)
	}
	props := field(items, "properties")
	for i, k := range keys {
		k = strings.TrimSpace(k)
		keys[i] = k
		prop := field(props, k)
		if k == "" || prop == nil {
			return fmt.Errorf("%s: merge key %q is not a property of the list's items", path, k)
		}
		if d := scalar(field(prop, "default")); d != "" {
			if t.KeyDefaults == nil {
				t.KeyDefaults = map[string]string{}
			}
			t.KeyDefaults[k] = d
		}
	}
	t.Strategy, t.Keys = MergeByKeys, keys
	return nil
}

// patchStrategies reads x-kubernetes-patch-strategy ("merge", "retainKeys",
// "merge,retainKeys", "replace").
func patchStrategies(n *yaml.Node, path string) (map[string]bool, error) {
	ps := field(n, "x-kubernetes-patch-strategy")
	if ps == nil {
		return nil, nil
	}
	if ps.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s.x-kubernetes-patch-strategy: want a string", path)
	}
	m := map[string]bool{}
	for _, s := range strings.Split(ps.Value, ",") {
		s = strings.TrimSpace(s)
		switch s {
		case "merge", "retainKeys", "replace":
			m[s] = true
		default:
			return nil, fmt.Errorf("%s.x-kubernetes-patch-strategy: unknown strategy %q (want merge, retainKeys or replace)", path, s)
		}
	}
	return m, nil
}

func isScalarSchema(n *yaml.Node) bool {
	switch scalar(field(n, "type")) {
	case "string", "integer", "number", "boolean":
		return true
	}
	return scalar(field(n, "x-kubernetes-int-or-string")) == "true"
}

// field returns the value of key in a mapping node (aliases followed),
// nil when n is not a mapping or has no such key.
func field(n *yaml.Node, key string) *yaml.Node { return yamltree.Resolve(yamltree.Lookup(n, key)) }

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func requiredString(n *yaml.Node, path, key string) (string, error) {
	v := field(n, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Value == "" {
		return "", fmt.Errorf("%s.%s: want a non-empty string", path, key)
	}
	return v.Value, nil
}

func stringList(n *yaml.Node, path string) ([]string, error) {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%s: want a list of field names", path)
	}
	l := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		c = yamltree.Resolve(c)
		if c == nil || c.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("%s[%d]: want a field name", path, i)
		}
		l = append(l, c.Value)
	}
	return l, nil
}
