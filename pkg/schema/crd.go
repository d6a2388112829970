package schema

import (
	"fmt"
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
	var ext *Schema
	var ignored []IgnoredCRD
	definedBy := map[kindKey]string{}
	meta := s.Named(objectMetaName)
	for _, item := range items {
		if !isCRD(item) {
			continue
		}
		name := crdName(item)
		kinds, err := crdKinds(item.YNode(), meta)
		if err != nil {
			return nil, nil, fmt.Errorf("CustomResourceDefinition %q: %w", name, err)
		}
		if k, ok := s.redefines(kinds); ok {
			ignored = append(ignored, IgnoredCRD{CRD: item, Kind: k})
			continue
		}
		if ext == nil {
			ext = &Schema{kinds: map[kindKey]*Type{}, base: s}
		}
		for _, k := range kinds {
			if other, ok := definedBy[k.key]; ok && other != name {
				return nil, nil, fmt.Errorf("CustomResourceDefinition %q: %s %s is also defined by CustomResourceDefinition %q",
					name, k.key.apiVersion, k.key.kind, other)
			}
			definedBy[k.key] = name
			ext.kinds[k.key] = k.root
		}
		ext.addCRDShapes(item.YNode()) // field names, for typos in patches: crdshape.go
	}
	if ext == nil {
		return s, ignored, nil
	}
	return ext, ignored, nil
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
		crdName(ic.CRD), ic.Kind)
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

func isCRD(item *yaml.RNode) bool {
	n := item.YNode()
	return n != nil && n.Kind == yaml.MappingNode &&
		scalar(field(n, "apiVersion")) == "apiextensions.k8s.io/v1" &&
		scalar(field(n, "kind")) == "CustomResourceDefinition"
}

// crdName is metadata.name, read without kyaml's getters, which panic on a
// metadata that is not a map (the runner refuses such items, but this
// package is also used on its own).
func crdName(item *yaml.RNode) string {
	return scalar(field(field(item.YNode(), "metadata"), "name"))
}

type crdKind struct {
	key  kindKey
	root *Type
}

// crdKinds reads the served versions of one CRD.
func crdKinds(crd *yaml.Node, meta *Type) ([]crdKind, error) {
	spec := field(crd, "spec")
	group, err := requiredString(spec, "spec", "group")
	if err != nil {
		return nil, err
	}
	kind, err := requiredString(field(spec, "names"), "spec.names", "kind")
	if err != nil {
		return nil, err
	}
	versions := field(spec, "versions")
	if versions == nil || versions.Kind != yaml.SequenceNode || len(versions.Content) == 0 {
		return nil, fmt.Errorf("spec.versions: want a non-empty list")
	}
	var kinds []crdKind
	w := walker{done: map[*yaml.Node]*Type{}, active: map[*yaml.Node]bool{}}
	for i, v := range versions.Content {
		path := fmt.Sprintf("spec.versions[%d]", i)
		v = yamltree.Resolve(v)
		if v == nil || v.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s: want a map", path)
		}
		version, err := requiredString(v, path, "name")
		if err != nil {
			return nil, err
		}
		if served := field(v, "served"); served != nil && served.Kind == yaml.ScalarNode && served.Value == "false" {
			continue
		}
		root := &Type{} // a known kind, even without anything to merge
		if schema := field(field(v, "schema"), "openAPIV3Schema"); schema != nil {
			t, err := w.walk(schema, path+".schema.openAPIV3Schema", 0)
			if err != nil {
				return nil, err
			}
			if t != nil {
				*root = *t // a copy: t may be shared through YAML aliases
			}
		}
		if meta != nil {
			fields := make(map[string]*Type, len(root.Fields)+1)
			for k, f := range root.Fields {
				fields[k] = f
			}
			fields["metadata"] = meta
			root.Fields = fields
		}
		kinds = append(kinds, crdKind{kindKey{group + "/" + version, kind}, root})
	}
	return kinds, nil
}

// walker converts the schemas of one CRD. YAML aliases can make a schema
// node appear many times, or inside itself: each node is converted once (the
// Types are read-only, so sharing them is safe) and a node inside itself is
// an error.
type walker struct {
	done   map[*yaml.Node]*Type
	active map[*yaml.Node]bool
	// refs resolves the $ref of an OpenAPI document (openapi.go); nil in
	// a CRD, whose schemas have none.
	refs *refResolver
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
	if w.refs != nil {
		target, err := w.refs.resolve(n, path)
		if err != nil {
			return nil, err
		}
		if target != n && w.active[target] {
			// A definition inside itself (JSONSchemaProps): what is
			// below is known where the definition is, not here.
			return nil, nil
		}
		n = target
	}
	if t, ok := w.done[n]; ok {
		return t, nil
	}
	if w.active[n] {
		return nil, fmt.Errorf("%s: the schema contains itself (through a YAML alias)", path)
	}
	w.active[n] = true
	t, err := w.convert(n, path, depth)
	delete(w.active, n)
	if err != nil {
		return nil, err
	}
	w.done[n] = t
	return t, nil
}

func (w *walker) convert(n *yaml.Node, path string, depth int) (*Type, error) {
	strategies, err := patchStrategies(n, path)
	if err != nil {
		return nil, err
	}
	if items := field(n, "items"); items != nil {
		return w.list(n, items, strategies, path, depth)
	}
	t := &Type{RetainKeys: strategies["retainKeys"], ReplaceMap: strategies["replace"]}
	if props := field(n, "properties"); props != nil {
		if props.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%s.properties: want a map", path)
		}
		for i := 0; i+1 < len(props.Content); i += 2 {
			name := props.Content[i].Value
			ft, err := w.walk(props.Content[i+1], path+".properties."+name, depth+1)
			if err != nil {
				return nil, err
			}
			if ft != nil {
				if t.Fields == nil {
					t.Fields = map[string]*Type{}
				}
				t.Fields[name] = ft
			}
		}
	}
	if ap := field(n, "additionalProperties"); ap != nil && ap.Kind == yaml.MappingNode { // may also be a bool
		if t.Elem, err = w.walk(ap, path+".additionalProperties", depth+1); err != nil {
			return nil, err
		}
	}
	if t.Fields == nil && t.Elem == nil && !t.RetainKeys && !t.ReplaceMap {
		return nil, nil
	}
	return t, nil
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
	listType := scalar(field(n, "x-kubernetes-list-type"))
	switch {
	case strategies["replace"]:
	case listType == "map":
		keys, err := stringList(field(n, "x-kubernetes-list-map-keys"), path+".x-kubernetes-list-map-keys")
		if err != nil {
			return nil, err
		}
		if err := t.mergeByKeys(keys, items, path); err != nil {
			return nil, err
		}
	case listType == "set":
		t.Strategy = Set
	case listType != "" && listType != "atomic":
		return nil, fmt.Errorf("%s.x-kubernetes-list-type: unknown type %q (want atomic, set or map)", path, listType)
	case strategies["merge"]:
		mergeKey := scalar(field(n, "x-kubernetes-patch-merge-key"))
		switch {
		case mergeKey != "":
			if err := t.mergeByKeys(strings.Split(mergeKey, ","), items, path); err != nil {
				return nil, err
			}
		case isScalarSchema(items):
			t.Strategy = Set
		}
		// merge without a merge key on a list of objects cannot identify
		// elements: the list stays Replace.
	}
	if strategies["retainKeys"] {
		e := &Type{RetainKeys: true}
		if t.Elem != nil {
			*e = *t.Elem // a copy: the element schema may be shared
			e.RetainKeys = true
		}
		t.Elem = e
	}
	if t.Strategy == Replace && !strategies["retainKeys"] {
		return nil, nil // elements of a replaced list do not matter
	}
	return t, nil
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
		if d := field(prop, "default"); d != nil && d.Kind == yaml.ScalarNode && d.Value != "" {
			if t.KeyDefaults == nil {
				t.KeyDefaults = map[string]string{}
			}
			t.KeyDefaults[k] = d.Value
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
