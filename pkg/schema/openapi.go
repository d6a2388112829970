package schema

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
)

// OpenAPI documents are the other way merge metadata is published: the
// cluster's own (kubectl get --raw /openapi/v2), or one a vendor ships for
// its custom resources, as kustomize's `openapi:` field reads them. Their
// schemas are read as the CRDs' are (crd.go, crdshape.go), with $ref
// followed; a definition is a kind when it carries
// x-kubernetes-group-version-kind.

// IsOpenAPI reports whether a document is an OpenAPI v2 (swagger: "2.0",
// definitions) or v3 (openapi: 3.x, components.schemas) document.
func IsOpenAPI(doc *yaml.Node) bool {
	_, _, ok := openAPIDefinitions(doc)
	return ok
}

// openAPIDefinitions returns the map of named schemas of an OpenAPI
// document and the prefix of the references to them.
func openAPIDefinitions(doc *yaml.Node) (*yaml.Node, string, bool) {
	doc = yamltree.Resolve(doc)
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = yamltree.Resolve(doc.Content[0])
	}
	if v := scalar(field(doc, "swagger")); strings.HasPrefix(v, "2") {
		defs := field(doc, "definitions")
		return defs, "#/definitions/", defs != nil
	}
	if v := scalar(field(doc, "openapi")); strings.HasPrefix(v, "3") {
		defs := field(field(doc, "components"), "schemas")
		return defs, "#/components/schemas/", defs != nil
	}
	return nil, "", false
}

// refResolver follows the $ref of one OpenAPI document.
type refResolver struct {
	defs   *yaml.Node
	prefix string
}

// maxRefChain bounds references to references.
const maxRefChain = 32

// resolve returns the schema n stands for: the definition its $ref names,
// or the one schema of an allOf that only wraps a reference (Kubernetes'
// v3 documents write `allOf: [{$ref: ...}]` to add a default beside it).
func (r *refResolver) resolve(n *yaml.Node, path string) (*yaml.Node, error) {
	for i := 0; n != nil && i < maxRefChain; i++ {
		if ref := field(n, "$ref"); ref != nil {
			name, ok := strings.CutPrefix(scalar(ref), r.prefix)
			target := field(r.defs, name)
			if !ok || target == nil {
				return nil, fmt.Errorf("%s: $ref %q names no definition of the document (want %s<name>)", path, scalar(ref), r.prefix)
			}
			n = target
			continue
		}
		all := field(n, "allOf")
		if all == nil || all.Kind != yaml.SequenceNode || len(all.Content) != 1 ||
			field(n, "properties") != nil || field(n, "items") != nil {
			return n, nil
		}
		n = yamltree.Resolve(all.Content[0])
	}
	if n == nil {
		return nil, nil
	}
	return nil, fmt.Errorf("%s: references lead to references more than %d times", path, maxRefChain)
}

// groupVersionKinds reads x-kubernetes-group-version-kind.
func groupVersionKinds(def *yaml.Node) []kindKey {
	gvks := field(def, "x-kubernetes-group-version-kind")
	if gvks == nil || gvks.Kind != yaml.SequenceNode {
		return nil
	}
	var out []kindKey
	for _, g := range gvks.Content {
		group, version, kind := scalar(field(g, "group")), scalar(field(g, "version")), scalar(field(g, "kind"))
		if version == "" || kind == "" {
			continue
		}
		av := version
		if group != "" {
			av = group + "/" + version
		}
		out = append(out, kindKey{av, kind})
	}
	return out
}

// WithOpenAPI returns a Schema that also knows the kinds an OpenAPI
// document defines: every definition with x-kubernetes-group-version-kind,
// read as a CRD's openAPIV3Schema is (WithCRDs), with $ref followed and
// metadata the built-in ObjectMeta. A kind the receiver already knows (a
// built-in kind, or one a CRD defines) keeps its rules: the document's is
// left out and returned among the skipped kinds, "apps/v1 Deployment" — a
// cluster's whole document repeats every built-in kind, so skipping them
// is the normal case. The receiver is not modified.
func (s *Schema) WithOpenAPI(doc *yaml.Node) (*Schema, []string, error) {
	defs, prefix, ok := openAPIDefinitions(doc)
	if !ok {
		return nil, nil, fmt.Errorf("not an OpenAPI document (want swagger: \"2.0\" with definitions, or openapi: 3.x with components.schemas)")
	}
	if defs.Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%s: want a map of schemas", strings.ReplaceAll(strings.Trim(prefix, "#/"), "/", "."))
	}
	refs := &refResolver{defs: defs, prefix: prefix}
	w := walker{done: map[*yaml.Node]*Type{}, active: map[*yaml.Node]bool{}, refs: refs}
	r := shapeReader{done: map[*yaml.Node]Shape{}, active: map[*yaml.Node]bool{}, refs: refs}
	meta := s.Named(objectMetaName)
	metaShape, _ := s.Shape("v1", "ConfigMap").Field("metadata")
	ext := &Schema{kinds: map[kindKey]*Type{}, shapes: map[kindKey]Shape{}, base: s}
	var skipped []string
	for i := 0; i+1 < len(defs.Content); i += 2 {
		name, def := defs.Content[i].Value, yamltree.Resolve(defs.Content[i+1])
		for _, k := range groupVersionKinds(def) {
			if s.knowsGroupKind(k) {
				skipped = append(skipped, k.apiVersion+" "+k.kind)
				continue
			}
			if _, dup := ext.kinds[k]; dup {
				continue // the same kind under two names (List kinds, aliases): the first wins
			}
			t, err := w.walk(def, name, 0)
			if err != nil {
				return nil, nil, fmt.Errorf("definition %q: %w", name, err)
			}
			root := &Type{}
			if t != nil {
				*root = *t
			}
			if meta != nil {
				fields := make(map[string]*Type, len(root.Fields)+1)
				for f, ft := range root.Fields {
					fields[f] = ft
				}
				fields["metadata"] = meta
				root.Fields = fields
			}
			ext.kinds[k] = root
			if sh := r.read(def, 0); sh.crd != nil && sh.crd.kind == Object {
				top := *sh.crd
				top.fields = make(map[string]Shape, len(sh.crd.fields)+3)
				for f, fs := range sh.crd.fields {
					top.fields[f] = fs
				}
				for _, f := range []string{"apiVersion", "kind"} {
					if _, ok := top.fields[f]; !ok {
						top.fields[f] = Shape{}
					}
				}
				top.fields["metadata"] = metaShape
				top.names = sortedNames(top.fields)
				ext.shapes[k] = Shape{crd: &top}
			}
		}
	}
	sort.Strings(skipped)
	if len(ext.kinds) == 0 {
		return s, skipped, nil
	}
	return ext, skipped, nil
}

// knowsGroupKind reports whether s knows the group and kind of k at any
// version (as redefines does for CRDs).
func (s *Schema) knowsGroupKind(k kindKey) bool {
	_, ok := s.redefines([]crdKind{{key: k}})
	return ok
}
