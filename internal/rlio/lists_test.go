package rlio

import (
	"bytes"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const listStream = `# dashboards, shipped as one list
apiVersion: v1
kind: ConfigMapList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-a # first
  data: {a: "1"}
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-b
  data: {b: "2"}
---
apiVersion: v1
kind: Service
metadata:
  name: svc
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: other
`

func readStream(t *testing.T, s string) []*yaml.RNode {
	t.Helper()
	in, err := ReadStream([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	var docs []*yaml.RNode
	for _, src := range in.Docs {
		docs = append(docs, src.Node)
	}
	return docs
}

func writeStream(t *testing.T, items []*yaml.RNode) string {
	t.Helper()
	var b bytes.Buffer
	var docs []Out
	for _, it := range items {
		docs = append(docs, Out{Node: it})
	}
	if err := WriteStream(&b, docs, ""); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func names(items []*yaml.RNode) string {
	var out []string
	for _, it := range items {
		out = append(out, it.GetKind()+"/"+it.GetName())
	}
	return strings.Join(out, " ")
}

func TestListsRoundTrip(t *testing.T) {
	docs := readStream(t, listStream)
	items, lists := ExpandLists(docs)
	if got := names(items); got != "ConfigMap/dash-a ConfigMap/dash-b Service/svc ConfigMap/other" {
		t.Fatalf("expanded: %s", got)
	}
	// unchanged: the stream as kyaml writes it without expanding
	want := writeStream(t, readStream(t, listStream))
	if got := writeStream(t, lists.Collapse(items)); got != want {
		t.Fatalf("round trip:\n%s\nwant:\n%s", got, want)
	}
}

func TestListsCollapse(t *testing.T) {
	docs := readStream(t, listStream)
	items, lists := ExpandLists(docs)
	// edit dash-a in place, rebuild dash-b as a new node, drop other, add one
	if err := items[0].PipeE(yaml.SetLabel("edited", "yes")); err != nil {
		t.Fatal(err)
	}
	items[1] = yaml.MustParse("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dash-b-7f8g\n")
	out := []*yaml.RNode{items[0], items[1], items[2], yaml.MustParse("apiVersion: v1\nkind: Secret\nmetadata:\n  name: new\n")}
	got := writeStream(t, lists.Collapse(out))
	want := `# dashboards, shipped as one list
apiVersion: v1
kind: ConfigMapList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: dash-a # first
    labels:
      edited: 'yes'
  data: {a: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: dash-b-7f8g
---
apiVersion: v1
kind: Service
metadata:
  name: svc
---
apiVersion: v1
kind: List
items: []
---
apiVersion: v1
kind: Secret
metadata:
  name: new
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestNoLists(t *testing.T) {
	docs := readStream(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: PodList\nitems: []\n")
	items, lists := ExpandLists(docs)
	if lists != nil || len(items) != 2 {
		t.Fatalf("no List with items: want the documents as they are, got %d items, lists %v", len(items), lists)
	}
}
