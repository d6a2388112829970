package rlio

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// rlItems are the items FuzzListSpans builds ResourceLists of, written
// at column 0 (buildList indents them): block and flow styles, odd
// indentation, comments inside and after them, block scalars, flow
// collections continued on later lines, anchors.
var rlItems = []string{
	"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: v\n",
	"- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n  data: { \"x\": \"1\" }\n",
	"- {apiVersion: v1, kind: Service, metadata: {name: c}, spec: {ports: [ {port: 80} ]}}\n",
	"-   kind: Deployment\n    metadata:\n        name: d\n    spec:\n        template:\n            spec:\n                containers:\n                    - name: app\n                      resources:\n                        {}\n",
	"- kind: Pod\n  metadata:\n    name: e   # trailing\n  spec:\n    containers:\n    - name: a\n      args: [ \"a\",\n        \"b\" ]\n",
	"- kind: ConfigMap\n  metadata:\n    name: f\n  data:\n    script: |\n      echo one\n\n      echo two\n    kept: |+\n      x\n\n",
	"- kind: ConfigMap\n  metadata:\n    name: g\n  data:\n    folded: >-\n      one\n      two\n    plain: a\n      b\n",
	"- kind: ConfigMap\n  metadata:\n    name: h\n    # a comment at the end of metadata\n  data:\n    k: v\n",
	"- kind: ConfigMap\n  metadata: &m\n    name: i\n  data: {k: v}\n",
	"- kind: ConfigMap\n  metadata:\n    name: j\n    annotations:\n      config.kubernetes.io/index: '3'\n      internal.config.kubernetes.io/path: p.yaml\n",
	"- kind: ConfigMap\n  metadata:\n    name: k\n  data:\n    indicator: |2\n        two more\n      base\n",
	"- # a comment on the dash's line\n  kind: ConfigMap\n  metadata: {name: l}\n",
	"-\n  kind: ConfigMap\n  metadata: {name: m}\n",
}

// between are what FuzzListSpans puts between items: nothing, blank and
// whitespace-only lines, comments at the items' column and elsewhere.
var between = []string{"", "\n", "  \n", "# between\n", "\n# after a blank\n\n", "  # indented\n", "    # deeper\n"}

// buildList builds a ResourceList from the seed: items indented by 0, 2
// or 4 under "items:", with what lies between them, a functionConfig
// before or after the items (or none), document markers around it.
func buildList(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed>>7|1))
	indent := strings.Repeat(" ", []int{0, 2, 4, 1}[r.IntN(4)])
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteString("--- # start\n")
	}
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n")
	config := r.IntN(3)
	const fc = "functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: cfg}\n"
	if config == 0 {
		b.WriteString(fc)
	}
	b.WriteString("items:\n")
	for range n {
		b.WriteString(between[r.IntN(len(between))])
		item := rlItems[r.IntN(len(rlItems))]
		for _, line := range strings.SplitAfter(item, "\n") {
			if strings.TrimSpace(line) != "" {
				b.WriteString(indent)
			}
			b.WriteString(line)
		}
	}
	b.WriteString([]string{"", "# after the items\n", "\n"}[r.IntN(3)])
	if config == 1 {
		b.WriteString(fc)
	}
	if r.IntN(5) == 0 {
		b.WriteString("...\n")
	}
	return []byte(b.String())
}

// FuzzListSpans holds copy-through to kyaml's writer: a ResourceList read
// by the fast codec, some of its items changed (a label set) and the rest
// left alone, written with its unchanged items copied, reads back (by
// kyaml's reader) as the same items, functionConfig included, as kyaml's
// writer's output of the same list; and the output, read and written again
// with nothing changed, is written back byte for byte.
func FuzzListSpans(f *testing.F) {
	for i := range 40 {
		f.Add(uint64(i), uint8(5), uint16(0x5555))
	}
	f.Fuzz(func(t *testing.T, seed uint64, n uint8, changed uint16) {
		raw := buildList(seed, int(n%8))
		checkListCopy(t, raw, changed)
	})
}

// FuzzListBytes is FuzzListSpans on any bytes: the fuzzer's mutations of
// the lists buildList builds.
func FuzzListBytes(f *testing.F) {
	for i := range 20 {
		f.Add(buildList(uint64(i), 4), uint16(i))
	}
	f.Fuzz(func(t *testing.T, raw []byte, changed uint16) {
		if len(raw) > 4096 {
			return
		}
		checkListCopy(t, raw, changed)
	})
}

// checkListCopy is FuzzListSpans' check on one list: the items whose bit
// is set in changed get a label.
func checkListCopy(t *testing.T, raw []byte, changed uint16) {
	t.Helper()
	fast, err := Codec{}.Read(raw)
	if err != nil || fast.Kind != "ResourceList" || writeChanged(fast, changed) != nil {
		return
	}
	ref, err := Codec{Kyaml: true}.Read(raw)
	if err != nil || writeChanged(ref, changed) != nil {
		t.Fatalf("kyaml's codec reads %q differently: %v", raw, err)
	}
	var got, want bytes.Buffer
	if err := (Codec{}).Write(&got, fast); err != nil {
		return // kyaml's writer fails too (checked below)
	}
	if err := (Codec{Kyaml: true}).Write(&want, ref); err != nil {
		t.Fatalf("kyaml cannot write what the fast codec wrote:\n%s\n%v", got.Bytes(), err)
	}
	sameReading(t, raw, ref, got.Bytes(), want.Bytes())
	again, err := Codec{}.Read(got.Bytes())
	if err != nil {
		t.Fatalf("output unreadable: %v\n%s", err, got.Bytes())
	}
	again.Unchanged = func(*yaml.RNode) bool { return true }
	if slices.Contains(again.src.copies(again.Items, again.Unchanged), "") {
		return // an item is written by kyaml's writer, which is not always idempotent itself
	}
	var twice bytes.Buffer
	if err := (Codec{}).Write(&twice, again); err != nil || twice.String() != got.String() {
		t.Fatalf("not idempotent (%v):\ninput:\n%s\nonce:\n%s\ntwice:\n%s", err, raw, got.Bytes(), twice.Bytes())
	}
}

// writeChanged sets a label on the items whose bit is set in changed and
// says the others are unchanged.
func writeChanged(l *List, changed uint16) error {
	touched := map[*yaml.Node]bool{}
	for i, it := range l.Items {
		if changed&(1<<(i%16)) != 0 {
			if err := it.PipeE(yaml.SetLabel("changed", "yes")); err != nil {
				return err
			}
			touched[it.YNode()] = true
		}
	}
	l.Unchanged = func(it *yaml.RNode) bool { return !touched[it.YNode()] }
	return nil
}

// sameReading fails unless got reads as want does (sameItems).
func sameReading(t *testing.T, raw []byte, ref *List, got, want []byte) {
	t.Helper()
	g, gerr := Codec{Kyaml: true}.Read(got)
	if _, werr := (Codec{Kyaml: true}).Read(want); werr != nil {
		return
	}
	if gerr != nil {
		t.Fatalf("copy-through output unreadable: %v\ninput:\n%s\noutput:\n%s", gerr, raw, got)
	}
	if !sameItems(g, want, ref.Items) {
		t.Fatalf("copy-through reads back differently from kyaml's output\ninput:\n%s\ncopied:\n%s\nkyaml:\n%s", raw, got, want)
	}
}

// SameItems reports whether the ResourceList got reads (by kyaml's reader)
// as want does, functionConfig and results included, each item as want's
// item or as an item of the input as read: kyaml's writer moves a comment
// that a blank line keeps from the item after it, where copy-through keeps
// the blank line.
func SameItems(got, want, input []byte) bool {
	g, gerr := Codec{Kyaml: true}.Read(got)
	in, ierr := Codec{Kyaml: true}.Read(input)
	return gerr == nil && ierr == nil && sameItems(g, want, in.Items)
}

func sameItems(g *List, want []byte, input []*yaml.RNode) bool {
	w, err := Codec{Kyaml: true}.Read(want)
	if err != nil || len(g.Items) != len(w.Items) || !sameNode(g.FunctionConfig.YNode(), w.FunctionConfig.YNode()) ||
		!sameNode(g.Results.YNode(), w.Results.YNode()) {
		return false
	}
	for i, it := range g.Items {
		if !sameNode(it.YNode(), w.Items[i].YNode()) && !slices.ContainsFunc(input, func(r *yaml.RNode) bool {
			return sameNode(it.YNode(), r.YNode())
		}) {
			return false
		}
	}
	return true
}

func ExampleCodec_Write_copyThrough() {
	raw := []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"  - kind: ConfigMap   # as read\n    metadata: {name: a}\n" +
		"  - kind: ConfigMap\n    metadata: {name: b}\n")
	l, _ := Codec{}.Read(raw)
	_ = l.Items[1].PipeE(yaml.SetLabel("changed", "yes"))
	l.Unchanged = func(it *yaml.RNode) bool { return it.GetName() == "a" }
	var out bytes.Buffer
	_ = Codec{}.Write(&out, l)
	fmt.Print(out.String())
	// Output:
	// apiVersion: config.kubernetes.io/v1
	// kind: ResourceList
	// items:
	// - kind: ConfigMap   # as read
	//   metadata: {name: a}
	// - kind: ConfigMap
	//   metadata: {name: b, labels: {changed: 'yes'}}
}

// copies is copiesAt for items whose unchanged test is given.
func (s *listSource) copies(items []*yaml.RNode, unchanged func(*yaml.RNode) bool) []string {
	at := make([]int, len(items))
	for k, it := range items {
		at[k] = s.at(it, unchanged)
	}
	return s.copiesAt(items, at)
}
