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
		next, refers, err := r.step(n, path)
		if err != nil || !refers {
			return next, err
		}
		n = next
	}
	if n == nil {
		return nil, nil
	}
	return nil, fmt.Errorf("%s: references lead to references more than %d times", path, maxRefChain)
}

// step takes one step from n: to the definition its $ref names, or to
// the one schema an allOf wraps. refers is false, and n returned, when n
// is a schema of its own.
func (r *refResolver) step(n *yaml.Node, path string) (next *yaml.Node, refers bool, err error) {
	ref := field(n, "$ref")
	if ref == nil {
		next, refers := wrapped(n)
		return next, refers, nil
	}
	name, ok := strings.CutPrefix(scalar(ref), r.prefix)
	target := field(r.defs, name)
	if !ok || target == nil {
		return nil, false, fmt.Errorf("%s: $ref %q names no definition of the document (want %s<name>)", path, scalar(ref), r.prefix)
	}
	return target, true, nil
}

// wrapped follows an allOf that is all n holds to its one schema.
func wrapped(n *yaml.Node) (*yaml.Node, bool) {
	all := field(n, "allOf")
	if all == nil || all.Kind != yaml.SequenceNode || len(all.Content) != 1 ||
		field(n, "properties") != nil || field(n, "items") != nil {
		return n, false
	}
	return yamltree.Resolve(all.Content[0]), true
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
	x := newOpenAPIReader(s, &refResolver{defs: defs, prefix: prefix})
	for i := 0; i+1 < len(defs.Content); i += 2 {
		if err := x.definition(defs.Content[i].Value, yamltree.Resolve(defs.Content[i+1])); err != nil {
			return nil, nil, err
		}
	}
	sort.Strings(x.skipped)
	if len(x.ext.kinds) == 0 {
		return s, x.skipped, nil
	}
	return x.ext, x.skipped, nil
}

// openAPIReader is what WithOpenAPI builds: the Schema of the document's
// kinds over base, and the kinds skipped.
type openAPIReader struct {
	base, ext *Schema
	types     walker
	shapes    shapeReader
	meta      *Type // ObjectMeta
	metaShape Shape
	skipped   []string
}

func newOpenAPIReader(base *Schema, refs *refResolver) *openAPIReader {
	metaShape, _ := base.Shape("v1", "ConfigMap").Field("metadata")
	return &openAPIReader{
		base:      base,
		ext:       &Schema{kinds: map[kindKey]*Type{}, shapes: map[kindKey]Shape{}, base: base},
		types:     newWalker(refs),
		shapes:    newShapeReader(refs),
		meta:      base.Named(objectMetaName),
		metaShape: metaShape,
	}
}

// definition adds the kinds a definition is, but those base knows and
// those an earlier definition is (the same kind under two names, List
// kinds, aliases: the first wins).
func (x *openAPIReader) definition(name string, def *yaml.Node) error {
	for _, k := range groupVersionKinds(def) {
		if x.base.knowsGroupKind(k) {
			x.skipped = append(x.skipped, k.apiVersion+" "+k.kind)
			continue
		}
		if _, dup := x.ext.kinds[k]; dup {
			continue
		}
		if err := x.add(k, name, def); err != nil {
			return err
		}
	}
	return nil
}

// add reads def as kind k: its Type, and its Shape when it has properties.
func (x *openAPIReader) add(k kindKey, name string, def *yaml.Node) error {
	t, err := x.types.walk(def, name, 0)
	if err != nil {
		return fmt.Errorf("definition %q: %w", name, err)
	}
	x.ext.kinds[k] = rootType(t, x.meta)
	x.ext.addRule(k, def, x.types.refs)
	if sh, ok := rootShape(x.shapes.read(def, 0), x.metaShape); ok {
		x.ext.shapes[k] = sh
	}
	return nil
}

// knowsGroupKind reports whether s knows the group and kind of k at any
// version (as redefines does for CRDs).
func (s *Schema) knowsGroupKind(k kindKey) bool {
	_, ok := s.redefines([]crdKind{{key: k}})
	return ok
}
