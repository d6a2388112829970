package apply

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/util"
	"k8s.io/kube-openapi/pkg/validation/spec"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fnrun/fnruntest"
)

// TestDifferentialCRDs merges, for every served version of every CRD of the
// corpus of real manifests (../shared/corpus), objects made from its
// schema with package apply (Schema.WithCRDs: our conversion) and with the
// API server's field manager typed as the API server types a custom
// resource: the version's structural schema (apiextensions-apiserver's
// NewStructural, Unfold, value validations and nullable stripped,
// ToKubeOpenAPI), apiVersion, kind and metadata added as its OpenAPI
// builder adds them, ObjectMeta's definition from its generated OpenAPI,
// and managedfields.NewTypeConverter. Skipped without the corpus.
func TestDifferentialCRDs(t *testing.T) {
	crds := readCRDs(t, "synthetic", []byte(syntheticCRD))
	if dir := fnruntest.CorpusDir(); dir != "" {
		crds = append(crds, corpusCRDs(t, dir)...)
	} else {
		t.Log("no corpus of real manifests (../shared/corpus, or " + fnruntest.CorpusEnv + "): the synthetic CRD only")
	}
	meta := builtinModels()
	counts := map[outcome]int{}
	for _, crd := range crds {
		ours := Builtin().WithCRDs([]*kyaml.RNode{crd.node})
		for _, v := range crd.obj.Spec.Versions {
			apiVersion := crd.obj.Spec.Group + "/" + v.Name
			gvk := schema.GroupVersionKind{Group: crd.obj.Spec.Group, Version: v.Name, Kind: crd.obj.Spec.Names.Kind}
			tc, err := referenceConverter(crd.obj, v, meta)
			if err != nil {
				t.Errorf("%s: the reference converter: %v", crd.obj.Name, err)
				continue
			}
			typ, err := ours.For(apiVersion, gvk.Kind)
			if err != nil {
				t.Errorf("%s: %v", crd.obj.Name, err)
				continue
			}
			v := newGenerator(typ.schema).root(typ.ref, apiVersion, gvk.Kind)
			o, msg := compare(tc, gvk, typ, v)
			counts[o]++
			if o == differ || o == bothRefused {
				t.Errorf("%s %s: %s", apiVersion, gvk.Kind, msg)
			}
		}
	}
	t.Logf("%d CRDs: %d versions merged alike (changed), %d alike (unchanged)", len(crds), counts[agreeChanged], counts[agreeUnchanged])
	if counts[agreeChanged] < min(20, len(crds)) {
		t.Errorf("too few CRD versions compared: the test would prove little")
	}
}

type corpusCRD struct {
	node *kyaml.RNode
	obj  *apiextensionsv1.CustomResourceDefinition
}

// corpusCRDs reads the apiextensions.k8s.io/v1 CRDs of the corpus.
func corpusCRDs(t *testing.T, dir string) []corpusCRD {
	var out []corpusCRD
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, readCRDs(t, path, b)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readCRDs reads the apiextensions.k8s.io/v1 CRDs of a YAML stream.
func readCRDs(t *testing.T, path string, b []byte) []corpusCRD {
	docs, err := yamlstream.Split(b)
	if err != nil {
		return nil // a template, not YAML
	}
	var out []corpusCRD
	for _, n := range docs {
		kind, apiVersion := yamltree.Lookup(n, "kind"), yamltree.Lookup(n, "apiVersion")
		if kind == nil || apiVersion == nil || kind.Value != "CustomResourceDefinition" || apiVersion.Value != "apiextensions.k8s.io/v1" {
			continue
		}
		r := kyaml.NewRNode(n)
		var obj apiextensionsv1.CustomResourceDefinition
		if err := sigsyaml.Unmarshal([]byte(r.MustString()), &obj); err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		out = append(out, corpusCRD{r, &obj})
	}
	return out
}

// syntheticCRD has what the corpus lacks: an embedded resource, an
// int-or-string, additionalProperties true, false and a schema, a granular
// map, a keyed list whose key has a default, unknown fields kept below a
// field, a string with a format.
const syntheticCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              port:
                x-kubernetes-int-or-string: true
              open: {type: object, additionalProperties: true}
              closed:
                type: object
                additionalProperties: false
                properties: {a: {type: string}}
              counts: {type: object, additionalProperties: {type: integer}}
              labels:
                type: object
                x-kubernetes-map-type: granular
                additionalProperties: {type: string}
              when: {type: string, format: date-time}
              rules:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, zone]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    zone: {type: string, default: eu}
                    weight: {type: integer}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  list:
                    type: array
                    x-kubernetes-list-type: set
                    items: {type: string}
`

// builtinModels are the OpenAPI definitions the API server has beside a
// CRD's (ObjectMeta and what it refers to), by their REST names.
func builtinModels() map[string]*spec.Schema {
	ref := func(path string) spec.Ref { return spec.MustCreateRef("#/definitions/" + restName(path)) }
	out := map[string]*spec.Schema{}
	for name, def := range generatedopenapi.GetOpenAPIDefinitions(ref) {
		s := def.Schema
		out[restName(name)] = &s
	}
	return out
}

// restName is a definition's REST name (io.k8s.api.core.v1.Pod), from a Go
// path (k8s.io/api/core/v1.Pod) or as it is.
func restName(name string) string {
	if !strings.Contains(name, "/") {
		return name
	}
	return util.ToRESTFriendlyName(name)
}

// referenceConverter types a CRD version as the API server does.
func referenceConverter(crd *apiextensionsv1.CustomResourceDefinition, v apiextensionsv1.CustomResourceDefinitionVersion, meta map[string]*spec.Schema) (managedfields.TypeConverter, error) {
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internal, nil); err != nil {
		return nil, err
	}
	ss, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	root := ss.Unfold().StripValueValidations().StripNullable().ToKubeOpenAPI()
	// the builder's buildKubeNative and addEmbeddedProperties
	builderKubeNative(root)
	root.AddExtension("x-kubernetes-group-version-kind", []any{map[string]any{
		"group": crd.Spec.Group, "version": v.Name, "kind": crd.Spec.Names.Kind}})
	models := map[string]*spec.Schema{modelName(crd.Spec.Group+"/"+v.Name, crd.Spec.Names.Kind): root}
	for k, s := range meta {
		models[k] = s
	}
	return managedfields.NewTypeConverter(models, false)
}

// builderKubeNative adds to a CRD's OpenAPI what apiextensions-apiserver's
// OpenAPI builder adds (buildKubeNative, addTypeMetaProperties,
// addEmbeddedProperties): apiVersion, kind and metadata, at the root and in
// each embedded resource.
func builderKubeNative(root *spec.Schema) {
	builderTypeMeta(root)
	builderEmbedded(root)
}

func builderTypeMeta(s *spec.Schema) {
	s.SetProperty("apiVersion", *spec.StringProperty())
	s.SetProperty("kind", *spec.StringProperty())
	s.SetProperty("metadata", *spec.RefSchema("#/definitions/" + objectMeta))
}

func builderEmbedded(s *spec.Schema) {
	if s == nil {
		return
	}
	for k, p := range s.Properties {
		builderEmbedded(&p)
		s.Properties[k] = p
	}
	if s.Items != nil {
		builderEmbedded(s.Items.Schema)
	}
	if s.AdditionalProperties != nil {
		builderEmbedded(s.AdditionalProperties.Schema)
	}
	if yes, ok := s.Extensions.GetBool("x-kubernetes-embedded-resource"); ok && yes {
		builderTypeMeta(s)
	}
}
