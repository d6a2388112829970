package mergemeta

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	"github.com/patchwork-krm/patchwork/pkg/fnconfig"
	"github.com/patchwork-krm/patchwork/pkg/schema"
	"github.com/patchwork-krm/patchwork/pkg/selector"
)

const widgetCRDList = `apiVersion: v1
kind: List
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: widgets.example.com}
  spec:
    group: example.com
    names: {kind: Widget, plural: widgets}
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
                parts:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [id]
                  items: {type: object, properties: {id: {type: string}}}
- apiVersion: apiextensions.k8s.io/v1beta1
  kind: CustomResourceDefinition
  metadata: {name: old.example.com}
`

const items = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {parts: []}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: api}
spec:
  values:
    env: []
---
apiVersion: v1
kind: ConfigMap
metadata: {name: prom}
data:
  prometheus.yml: "scrape_configs: []"
`

func load(t *testing.T, c Config) (*Meta, framework.Results, *selector.Index) {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "crds"), 0o755)
	os.WriteFile(filepath.Join(dir, "crds", "widgets.yaml"), []byte(widgetCRDList), 0o644)
	nodes, err := kio.FromBytes([]byte(items))
	if err != nil {
		t.Fatal(err)
	}
	var results framework.Results
	m, err := Load(fnconfig.Files{Dir: dir}, &results, c)
	if err != nil {
		t.Fatal(err)
	}
	return m, results, selector.NewIndex(nodes, nil)
}

func TestLoadReadsSchemaFilesAndDeclarations(t *testing.T) {
	m, results, ix := load(t, Config{
		Schemas: []SchemaSource{{Path: "crds"}},
		MergeKeys: []MergeKey{
			{Set: selector.Set{Target: &selector.Selector{Kind: "HelmRelease"}}, Path: "spec.values.env", Keys: []string{"name"}},
			{Path: `data.prometheus\.yml.scrape_configs`, Keys: []string{"job_name"}},
		},
	})
	var warnings []string
	for _, r := range results {
		warnings = append(warnings, r.Message)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "crds/widgets.yaml items[1]: an apiextensions.k8s.io/v1beta1 CustomResourceDefinition, which Kubernetes no longer serves") {
		t.Errorf("warnings: %q", warnings)
	}
	w, _, err := m.TypeFor(ix, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st, keys := w.Field("spec").Field("parts").List(); st != schema.MergeByKeys || keys[0] != "id" {
		t.Errorf("the CRD of the schema file: %v %v", st, keys)
	}
	hr, decls, err := m.TypeFor(ix, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := hr.Field("spec").Field("values").Field("env").List(); st != schema.MergeByKeys || decls != "0,1" {
		t.Errorf("declared env: %v, declarations %q", st, decls)
	}
	if _, decls, _ := m.TypeFor(ix, 0); decls != "1" {
		t.Errorf("a Widget is selected by the target-less declaration only: %q", decls)
	}

	// The declaration that continues into the ConfigMap's string.
	cm := ix.Item(2).YNode()
	data := yamltree.Child(cm, 3)
	steps := []fieldpath.Step[*yaml.Node]{{Node: cm, Pos: 3}, {Node: data, Pos: 0}}
	doc, err := m.EmbeddedType(ix, 2, steps)
	if err != nil {
		t.Fatal(err)
	}
	if st, keys := doc.Field("scrape_configs").List(); st != schema.MergeByKeys || keys[0] != "job_name" {
		t.Errorf("embedded: %v %v", st, keys)
	}
	if doc, _ := m.EmbeddedType(ix, 2, steps[:1]); doc.Field("scrape_configs") != nil {
		t.Error("a declaration reached a place its path does not")
	}
}

func TestDeclarationsCannotChangeBuiltInKinds(t *testing.T) {
	m, _, _ := load(t, Config{MergeKeys: []MergeKey{{Path: "spec.template.spec.containers", Keys: []string{"image"}}}})
	nodes, _ := kio.FromBytes([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: e}\n"))
	ix := selector.NewIndex(nodes, nil)
	_, _, err := m.TypeFor(ix, 0)
	de, ok := err.(*DeclError)
	if !ok || !de.First || de.Entry != "mergeKeys[0]" || !strings.Contains(de.Msg, "apps/v1 Deployment is a built-in kind, whose schema gives this field its merge rules (merged by [name])") {
		t.Fatalf("got %#v", err)
	}
	if _, _, err := m.TypeFor(ix, 1); err == nil || err.(*DeclError).First {
		t.Errorf("the second Deployment: %v (reported once)", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), 0o644)
	_, err := Load(fnconfig.Files{Dir: dir}, new(framework.Results), Config{
		Schemas:   []SchemaSource{{Path: "cm.yaml"}, {Path: ""}},
		MergeKeys: []MergeKey{{Path: "spec.*.0.x", Keys: []string{"a"}}},
	})
	for _, want := range []string{
		"mergeKeys[0]: path: spec.*.0: an index names a position",
		"schemas[0]: cm.yaml holds no CustomResourceDefinition",
		"schemas[1]: path: give a file or a directory",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want %q", err, want)
		}
	}
}

// Each declaration that applies to nothing is a finding: a path that
// stops short, one that selects no resource, a schema file none of whose
// kinds a resource is, and one that defines a resource's kind at another
// version (issue 28, item 7). One that reaches a list in any resource is
// no finding.
func TestUnapplied(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "crds"), 0o755)
	os.WriteFile(filepath.Join(dir, "crds", "widgets.yaml"), []byte(widgetCRDList), 0o644)
	os.WriteFile(filepath.Join(dir, "gadget.yaml"), []byte(strings.ReplaceAll(strings.ReplaceAll(widgetCRDList[strings.Index(widgetCRDList, "- apiVersion")+2:strings.Index(widgetCRDList, "- apiVersion: apiextensions.k8s.io/v1beta1")], "\n  ", "\n"), "Widget", "Gadget")), 0o644)
	nodes, err := kio.FromBytes([]byte(items + "---\napiVersion: example.com/v2\nkind: Gadget\nmetadata: {name: g}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(fnconfig.Files{Dir: dir}, new(framework.Results), Config{
		Schemas: []SchemaSource{{Path: "crds"}, {Path: "gadget.yaml"}},
		MergeKeys: []MergeKey{
			{Set: selector.Set{Target: &selector.Selector{Kind: "HelmRelease"}}, Path: "spec.values.env", Keys: []string{"name"}},
			{Set: selector.Set{Target: &selector.Selector{Kind: "HelmRelease"}}, Path: "spec.valeus.env", Keys: []string{"name"}},
			{Set: selector.Set{Target: &selector.Selector{Kind: "HelmRelaese"}}, Path: "spec.values.env", Keys: []string{"name"}},
			{Path: `data.prometheus\.yml.scrape_configs`, Keys: []string{"job_name"}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ix := selector.NewIndex(nodes, nil)
	scope := Scope{Root: "the resource", Noun: "resource", Strings: true,
		Roots: func(i int) []*yaml.Node { return []*yaml.Node{ix.Item(i).YNode()} }}
	var got []string
	for _, f := range m.Unapplied(ix, scope) {
		got = append(got, f.Entry+" | "+f.Field+" | "+f.Msg)
	}
	want := []string{
		`mergeKeys[1] | spec.valeus | the path spec.valeus.env leads to no list in the 1 resource the declaration selects: spec has no key "valeus" (did you mean spec.values?); no list merges by [name], and a patch replaces the lists it meant whole`,
		`mergeKeys[2] | spec.values.env | the declaration applies to no resource (target {kind=HelmRelaese} matches no resource (did you mean kind: HelmRelease?)); no list merges by [name], and a patch replaces the lists it meant whole`,
		`schemas[1] |  | gadget.yaml defines Gadget at example.com/v1, not at this resource's example.com/v2: no schema describes it, so a patch replaces its lists whole`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The Widget gone, the CRDs of schemas[0] apply to nothing; in
	// podspec-patch no schema file ever applies.
	ix.Remove(0)
	scope.NoSchemas = "no schema file applies here"
	for _, f := range m.Unapplied(ix, scope) {
		got = append(got, f.Entry+" | "+f.Msg)
	}
	if s := strings.Join(got, "\n"); !strings.Contains(s, "schemas[0] | crds: no schema file applies here") {
		t.Errorf("NoSchemas:\n%s", s)
	}
	scope.NoSchemas = ""
	fs := m.Unapplied(ix, scope)
	if f := fs[2]; f.Entry != "schemas[0]" || f.Msg != "crds defines 1 kind (example.com/v1 Widget), and no resource is of any of them: the entry changes no merge" {
		t.Errorf("a schema file whose kinds no resource is: %+v", fs)
	}
}
