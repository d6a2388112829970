package apply

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	smd "sigs.k8s.io/structured-merge-diff/v6/schema"

	"github.com/patchwork-krm/patchwork/internal/yamljson"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// WithCRDs is s knowing the kinds the CustomResourceDefinitions among
// items define (apiextensions.k8s.io/v1, served versions), typed as the
// API server types their resources: from the version's openAPIV3Schema,
// metadata the built-in ObjectMeta, list and map types as its
// x-kubernetes- extensions say. A built-in kind stays the built-in's; of
// two CRDs defining a kind the first counts; a CRD that cannot be read is
// left out (package schema reports it). A kind's schema is converted when
// a patch first needs it.
func (s *Schema) WithCRDs(items []*yaml.RNode) *Schema {
	c := &crdTypes{versions: map[gvk]crdVersion{}, done: map[gvk]crdDone{}}
	for _, it := range items {
		if !schema.IsCRD(it) {
			continue
		}
		vs, err := schema.CRDVersions(it.YNode())
		if err != nil {
			continue
		}
		for _, v := range vs {
			if _, dup := c.versions[gvk{v.APIVersion, v.Kind}]; !dup {
				c.versions[gvk{v.APIVersion, v.Kind}] = crdVersion{v, schema.CRDName(it)}
			}
		}
	}
	if len(c.versions) == 0 {
		return s
	}
	return &Schema{smd: s.smd, kinds: s.kinds, crds: c}
}

// crdTypes are the kinds of a run's CRDs, converted on first use.
type crdTypes struct {
	mu       sync.Mutex
	versions map[gvk]crdVersion
	done     map[gvk]crdDone
}

type crdVersion struct {
	schema.CRDVersion
	crd string // its CRD's name
}

type crdDone struct {
	t   Type
	err error
}

// typeOf is the type of a CRD's kind; false when no CRD defines it.
func (c *crdTypes) typeOf(apiVersion, kind string) (Type, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := gvk{apiVersion, kind}
	if d, ok := c.done[key]; ok {
		return d.t, true, d.err
	}
	v, ok := c.versions[key]
	if !ok {
		return Type{}, false, nil
	}
	t, err := v.convert()
	if err != nil {
		err = fmt.Errorf("CustomResourceDefinition %q: %s.schema.openAPIV3Schema: %v", v.crd, v.Path, err)
	}
	c.done[key] = crdDone{t, err}
	return t, true, err
}

// objectMeta is the built-in type of every resource's metadata.
const objectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// convert types a CRD version as the API server does (apiextensions-
// apiserver's OpenAPI builder, then kube-openapi's schemaconv, as
// managedfields.NewTypeConverter): the schema as OpenAPI, apiVersion and
// kind strings, metadata and the metadata of embedded resources the
// built-in ObjectMeta; the built-in types beside it.
func (v crdVersion) convert() (Type, error) {
	if v.Schema == nil {
		return Builtin().named(deduced, ""), nil
	}
	js, err := yamljson.Encode(v.Schema)
	if err != nil {
		return Type{}, err
	}
	var root spec.Schema
	if err := json.Unmarshal(js, &root); err != nil {
		return Type{}, err
	}
	kubeNative(&root)
	name := modelName(v.APIVersion, v.Kind)
	s, err := schemaconv.ToSchemaFromOpenAPI(map[string]*spec.Schema{name: &root}, false)
	if err != nil {
		return Type{}, err
	}
	return Type{schema: withBuiltin(s.Types), ref: smd.TypeRef{NamedType: &name}}, nil
}

// kubeNative adds what the API server adds to a CRD's schema: apiVersion,
// kind and metadata, at the root and in each embedded resource.
func kubeNative(root *spec.Schema) {
	typeMeta(root)
	embedded(root)
}

func typeMeta(s *spec.Schema) {
	s.SetProperty("apiVersion", *spec.StringProperty())
	s.SetProperty("kind", *spec.StringProperty())
	s.SetProperty("metadata", *spec.RefSchema("#/definitions/" + objectMeta))
}

func embedded(s *spec.Schema) {
	if s == nil {
		return
	}
	for k, p := range s.Properties {
		embedded(&p)
		s.Properties[k] = p
	}
	if s.Items != nil {
		embedded(s.Items.Schema)
	}
	if s.AdditionalProperties != nil {
		embedded(s.AdditionalProperties.Schema)
	}
	if yes, ok := s.Extensions.GetBool("x-kubernetes-embedded-resource"); ok && yes {
		typeMeta(s)
	}
}

// modelName is the API server's name of a kind's definition:
// com.example.v1.Widget for example.com/v1 Widget.
func modelName(apiVersion, kind string) string {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	labels := strings.Split(group, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(append(labels, version, kind), ".")
}

// withBuiltin is a schema of types and the built-in ones (ObjectMeta and
// what it needs; the untyped types schemaconv adds are the built-in's too).
func withBuiltin(types []smd.TypeDef) *smd.Schema {
	b := Builtin().smd
	all := make([]smd.TypeDef, 0, len(types)+len(b.Types))
	for _, t := range types {
		if _, known := b.FindNamedType(t.Name); !known {
			all = append(all, t)
		}
	}
	return &smd.Schema{Types: append(all, b.Types...)}
}
