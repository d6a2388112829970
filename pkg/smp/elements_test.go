package smp

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/schema"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// MergeElements tells, for each keyed element the patch names, whether it
// merged into the document's or was added (issue 20); what an added
// element, a $patch: replace list or map brings is not listed on its own.
func TestMergeElements(t *testing.T) {
	deployment := schema.Builtin().Lookup("apps/v1", "Deployment")
	doc := `apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - name: server
        image: s:1
        env: [{name: A, value: "1"}]
`
	for _, c := range []struct{ patch, want string }{
		{"spec: {template: {spec: {containers: [{name: server, env: [{name: A, value: '2'}, {name: B, value: '3'}]}]}}}",
			"[{spec.template.spec.containers[name=server] false false true true server} {spec.template.spec.containers[name=server].env[name=A] false false false false } {spec.template.spec.containers[name=server].env[name=B] true false false false }]"},
		{"spec: {template: {spec: {containers: [{name: sidecar, image: x:1, env: [{name: A, value: '1'}]}]}}}",
			"[{spec.template.spec.containers[name=sidecar] true false true true sidecar}]"},
		{"spec: {template: {spec: {containers: [{name: web, resources: {limits: {memory: 1Gi}}}]}}}",
			"[{spec.template.spec.containers[name=web] true false true false web}]"},
		{"spec: {template: {spec: {containers: [{name: web, image: ''}]}}}",
			"[{spec.template.spec.containers[name=web] true false true false web}]"},
		{"spec: {template: {spec: {containers: [{$patch: replace}, {name: web, image: w:1}]}}}", "[]"},
		{"spec: {template: {spec: {volumes: [{name: v, emptyDir: {}}]}}}",
			"[{spec.template.spec.volumes[name=v] true false false false }]"},
		{"spec: {template: {spec: {containers: [{name: server, $patch: delete}]}}}", "[]"},
	} {
		els, err := MergeElements(yaml.MustParse(doc), yaml.MustParse(c.patch), deployment)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(els); got != c.want && !(c.want == "[]" && len(els) == 0) {
			t.Errorf("%s:\n got  %s\n want %s", c.patch, got, c.want)
		}
	}
}

// A Tally finds the elements added in some resources and merged in others,
// and the containers added without an image; what comes with an injected
// container (a sidecar with its image) is no finding.
func TestTally(t *testing.T) {
	var tl Tally
	c := "spec.containers[name=server]"
	v := "spec.volumes[name=logs]"
	tl.Add(0, []Element{{Path: c, Container: true, Image: true}, {Path: v}})
	tl.Add(1, []Element{{Path: c, Created: true, Container: true, Name: "server"}, {Path: v, Created: true}})
	tl.Add(2, []Element{{Path: c, Created: true, Container: true, Image: true}, {Path: v, Created: true}})
	got := tl.Findings()
	want := []*Finding{
		{Path: c, Created: []int{1}, Merged: []int{0}, NoImage: []int{1}, Name: "server"},
		{Path: v, Created: []int{1}, Merged: []int{0}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	var all Tally
	all.Add(0, []Element{{Path: v, Created: true}})
	all.Add(1, []Element{{Path: v, Created: true}})
	if f := all.Findings(); len(f) != 0 {
		t.Errorf("added everywhere is no finding: %+v", f)
	}
}

// A default adds no element: where the document has none with the
// patch element's keys, the element is Unfilled, and a Tally over
// resources none of which had it finds that it did nothing (issue 28,
// item 8); merged into one, it did something and is no finding.
func TestDefaultUnfilledElements(t *testing.T) {
	deployment := schema.Builtin().Lookup("apps/v1", "Deployment")
	doc := "spec: {template: {spec: {containers: [{name: server, image: s:1}]}}}"
	patch := "spec: {template: {spec: {containers: [{name: app, resources: {limits: {memory: 1Gi}}}, {name: server, imagePullPolicy: Always}]}}}"
	r, err := MergeWith(yaml.MustParse(doc), yaml.MustParse(patch), deployment, Options{Track: true, Default: true})
	if err != nil {
		t.Fatal(err)
	}
	app, server := "spec.template.spec.containers[name=app]", "spec.template.spec.containers[name=server]"
	want := []Element{{Path: app, Unfilled: true, Container: true, Name: "app"}, {Path: server, Container: true, Image: true, Name: "server"}}
	if !reflect.DeepEqual(r.Elements, want) {
		t.Fatalf("got  %+v\nwant %+v", r.Elements, want)
	}
	var tl Tally
	tl.Add(0, r.Elements)
	tl.Add(1, []Element{{Path: app, Unfilled: true, Container: true, Name: "app"}})
	got := tl.Findings()
	if len(got) != 1 || got[0].Path != app || !got[0].NoneHad() || !reflect.DeepEqual(got[0].Unfilled, []int{0, 1}) || got[0].Name != "app" {
		t.Errorf("got %+v", got)
	}
	tl.Add(2, []Element{{Path: app, Container: true, Image: true, Name: "app"}})
	if got := tl.Findings(); len(got) != 0 {
		t.Errorf("an element a resource had is no finding: %+v", got)
	}
}
