package schema

import (
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// Where a declaration's path leads, and the words for where it stopped:
// every way a wildcard opens counts, a string is gone into only when
// asked, and a Secret's keys are never named.
func TestReach(t *testing.T) {
	const doc = `spec:
  values:
    env: [{name: A}]
    extra: {env: [{name: B}]}
  sources:
  - helm: {parameters: [{name: p}]}
  - ref: values
  empty: []
  title: hello
  config: |
    scrape_configs: [{job_name: app}]
`
	root := yaml.MustParse(doc).YNode()
	for _, c := range []struct {
		path    string
		o       ReachOptions
		lists   int
		at, why string
	}{
		{path: "spec.values.env", lists: 1},
		{path: "spec.sources.*.helm.parameters", lists: 1},
		{path: "spec.env", at: "spec.env", why: `spec has no key "env" (lists named "env" are at spec.values.env, spec.values.extra.env)`},
		{path: "spec.valeus.env", at: "spec.valeus", why: `spec has no key "valeus" (did you mean spec.values?)`},
		{path: "spec.values", at: "spec.values", why: "spec.values is a map, not a list (lists in it: env)"},
		{path: "spec.empty.*.x", at: "spec.empty", why: "spec.empty is an empty list"},
		{path: "spec.sources.[name=a].x", at: "spec.sources.[name=a]", why: "no element of spec.sources matches [name=a]"},
		{path: "spec.title.x", at: "spec.title", why: "spec.title is a string, so x selects nothing there"},
		{path: "spec.config.scrape_configs", at: "spec.config", why: "spec.config is a string, so scrape_configs selects nothing there"},
		{path: "spec.config.scrape_configs", o: ReachOptions{Strings: true}, lists: 1},
		{path: "spec.title.x", o: ReachOptions{Strings: true}, at: "spec.title", why: "spec.title is a string that holds no JSON or YAML document, so x selects nothing there"},
		{path: "spek", o: ReachOptions{Root: "the resource"}, at: "spek", why: `the resource has no key "spek" (did you mean spec?)`},
		{path: "spek", o: ReachOptions{Root: "the resource", Secret: true}, at: "spek", why: `the resource has no key "spek"`},
		{path: "spec.*.nope", o: ReachOptions{Secret: true}, at: "spec.*.nope", why: `spec.* has no key "nope"`},
		{path: "spec.*.nope", at: "spec.values.nope", why: `spec.values has no key "nope"`},
	} {
		r := ListKeys{Path: fieldpath.MustParse(c.path), Keys: []string{"name"}}.Reach(root, c.o)
		if r.Lists != c.lists || r.At != c.at || r.Why != c.why {
			t.Errorf("%s: got %d %q %q\n want %d %q %q", c.path, r.Lists, r.At, r.Why, c.lists, c.at, c.why)
		}
	}
}

// KindsDefined reads a CRD's served versions and an OpenAPI document's
// kinds; any other document defines none.
func TestKindsDefined(t *testing.T) {
	crd := yaml.MustParse(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pipelines.ci.example.org}
spec:
  group: ci.example.org
  names: {kind: Pipeline, plural: pipelines}
  versions: [{name: v1}, {name: v1beta1, served: false}]
`).YNode()
	if got := KindsDefined(crd); len(got) != 1 || got[0] != (Kind{"ci.example.org/v1", "Pipeline"}) || got[0].Group() != "ci.example.org" {
		t.Errorf("CRD: %v", got)
	}
	openapi := yaml.MustParse(`swagger: "2.0"
definitions:
  w: {x-kubernetes-group-version-kind: [{group: example.com, version: v1, kind: Widget}]}
`).YNode()
	if got := KindsDefined(openapi); len(got) != 1 || got[0] != (Kind{"example.com/v1", "Widget"}) {
		t.Errorf("OpenAPI: %v", got)
	}
	if got := KindsDefined(yaml.MustParse("apiVersion: v1\nkind: ConfigMap\n").YNode()); got != nil {
		t.Errorf("a ConfigMap: %v", got)
	}
}
