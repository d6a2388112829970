package schema

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

func TestWithListKeysGraftsWithoutChangingTheOriginal(t *testing.T) {
	base := Builtin().Lookup("apps/v1", "Deployment")
	got, err := base.WithListKeys(ListKeys{Path: fieldpath.MustParse("spec.values.env"), Keys: []string{"name"}})
	if err != nil {
		t.Fatal(err)
	}
	if s, k := got.Field("spec").Field("values").Field("env").List(); s != MergeByKeys || strings.Join(k, ",") != "name" {
		t.Errorf("declared list: %v %v", s, k)
	}
	if base.Field("spec").Field("values") != nil {
		t.Error("the built-in type was changed")
	}
	if got.Field("spec").Field("template") != base.Field("spec").Field("template") {
		t.Error("an untouched field was copied instead of shared")
	}
}

func TestWithListKeysWildcardsAndMatchers(t *testing.T) {
	var root *Type
	root, err := root.WithListKeys(ListKeys{Path: fieldpath.MustParse("spec.sources.*.helm.parameters"), Keys: []string{"name"}})
	if err != nil {
		t.Fatal(err)
	}
	root, err = root.WithListKeys(ListKeys{Path: fieldpath.MustParse("spec.sources.[chart=app].helm.valueFiles"), Keys: []string{"path"}})
	if err != nil {
		t.Fatal(err)
	}
	sources := root.Field("spec").Field("sources")
	app := yaml.MustParse("chart: app\nrepoURL: x").YNode()
	other := yaml.MustParse("chart: db").YNode()
	for _, el := range []*yaml.Node{app, other} {
		if s, _ := sources.ElementFor(el).Field("helm").Field("parameters").List(); s != MergeByKeys {
			t.Errorf("%s: parameters not keyed", el.Content[1].Value)
		}
	}
	if s, _ := sources.ElementFor(app).Field("helm").Field("valueFiles").List(); s != MergeByKeys {
		t.Error("the matched element's valueFiles are not keyed")
	}
	if s, _ := sources.ElementFor(other).Field("helm").Field("valueFiles").List(); s != Replace {
		t.Error("an element the matcher does not select got its keys")
	}
}

func TestWithListKeysRefuses(t *testing.T) {
	crd := &Type{Fields: map[string]*Type{"ports": {Strategy: MergeByKeys, Keys: []string{"port"}}, "tags": {Strategy: Set}}}
	for _, c := range []struct {
		path string
		keys []string
		err  string
	}{
		{"ports", []string{"name"}, "ports: its schema already merges this list by [port]"},
		{"tags", []string{"name"}, "tags: its schema already merges this list as a set"},
		{"spec.list.0.env", []string{"name"}, "spec.list.0: an index names a position"},
		{"spec.env", nil, "keys: give at least one field"},
		{"spec.env", []string{"name", "name"}, `keys: "name" is listed twice`},
	} {
		_, err := crd.WithListKeys(ListKeys{Path: fieldpath.MustParse(c.path), Keys: c.keys})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got %v, want %q", c.path, err, c.err)
		}
	}
	if _, err := crd.WithListKeys(ListKeys{Path: fieldpath.MustParse("ports"), Keys: []string{"port"}}); err != nil {
		t.Errorf("declaring the keys the schema has: %v", err)
	}
}

func TestDescribes(t *testing.T) {
	s := Builtin()
	for _, c := range []struct {
		av, kind, path string
		at, how        string
	}{
		{"apps/v1", "Deployment", "spec.template.spec.containers", "spec.template.spec.containers", "merged by [name]"},
		{"apps/v1", "Deployment", "spec.template.spec.tolerations", "spec.template.spec.tolerations", "atomic"},
		{"apps/v1", "Deployment", "spec.template.spec.containers.*.args", "spec.template.spec.containers.*.args", "atomic"},
		{"apps/v1", "Deployment", "spec.values.env", "", ""},
		{"v1", "ConfigMap", "data.x", "", ""},
		{"example.com/v1", "HelmRelease", "spec.values.env", "", ""},
	} {
		at, how, ok := s.Describes(c.av, c.kind, fieldpath.MustParse(c.path))
		if ok != (c.at != "") || at != c.at || !strings.HasPrefix(how, c.how) {
			t.Errorf("%s %s: got %q %q %v", c.kind, c.path, at, how, ok)
		}
	}
}
