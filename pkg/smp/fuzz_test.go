package smp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// FuzzMerge merges random patches into random documents under a random
// schema and checks what must always hold: no panic, the patch unchanged and
// unshared, Validate agreeing with Merge, valid YAML out, no directive in the
// output, and a second merge changing nothing.
//
// doc and patch are YAML texts; when one does not parse (or is empty) it is
// generated from the bytes of shape instead, from a small alphabet of keys and
// values so that keys collide and directives appear often. The schema is
// derived from shape too, following the structure of both documents.
func FuzzMerge(f *testing.F) {
	f.Add("a: 1\nb: [x, y]", "a: 2\nb: [z]\nc: {d: 1}", []byte{1, 2, 3})
	f.Add("list: [{name: a, v: 1}, {name: b}]", "list: [{name: b, v: 2}, {name: c}, {name: a, $patch: delete}]", []byte{1, 1, 1, 1})
	f.Add("ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]", "ports: [{port: 53, x: 1}]", []byte{9, 1, 1, 2, 1})
	f.Add("", "", []byte("generated documents from these bytes"))
	old := ownBudget
	ownBudget = func() *budget.Budget { return budget.Limits(1<<12, 1<<24) } // keep alias bombs quick
	f.Cleanup(func() { ownBudget = old })
	f.Fuzz(func(t *testing.T, docText, patchText string, shape []byte) {
		r := &byteReader{b: shape}
		dst := parseOrGenerate(docText, r, false)
		patch := parseOrGenerate(patchText, r, true)
		if dst == nil || patch == nil {
			return
		}
		ty := genType(r, []*yaml.Node{dst.YNode(), patch.YNode()}, 0)
		checkInvariants(t, dst, patch, ty)
	})
}

func checkInvariants(t *testing.T, dst, patch *yaml.RNode, ty *schema.Type) {
	patchBefore := mustString(t, patch)
	dstBefore := mustString(t, dst)
	hadDirectives := hasDirectiveKey(dst.YNode())

	err := Merge(dst, patch, ty)
	verr := Validate(patch, ty)
	if got := mustString(t, patch); got != patchBefore {
		t.Fatalf("patch modified:\n%s\nwas:\n%s", got, patchBefore)
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("error %T is not *Error: %v", err, err)
		}
		if IsDeleteDirective(patch) {
			return
		}
		if verr == nil || verr.Error() != err.Error() {
			// Only an alias bomb in the document may fail Merge alone.
			if !strings.Contains(err.Error(), "YAML aliases expand") {
				t.Fatalf("Merge: %v\nValidate: %v\ndoc:\n%s\npatch:\n%s", err, verr, dstBefore, patchBefore)
			}
		}
		return
	}
	if verr != nil {
		t.Fatalf("Merge succeeded, Validate: %v", verr)
	}
	out := mustString(t, dst)
	// (The encoder itself writes some generated trees, e.g. a comment on an
	// empty flow map, as invalid YAML; only documents it can write count.)
	_, inErr := yaml.Parse(dstBefore)
	if _, perr := yaml.Parse(out); perr != nil && inErr == nil && strings.TrimSpace(out) != "" {
		t.Fatalf("output is not valid YAML: %v\n%s\ndoc:\n%s\npatch:\n%s", perr, out, dstBefore, patchBefore)
	}
	if n := sharedNodes(dst.Document(), patch.Document()); n > 0 {
		t.Fatalf("%d patch nodes shared with the document", n)
	}
	if !hadDirectives && hasDirectiveKey(dst.YNode()) {
		t.Fatalf("a directive leaked into the output:\n%s\ndoc:\n%s\npatch:\n%s", out, dstBefore, patchBefore)
	}
	if err := Merge(dst, patch, ty); err != nil {
		t.Fatalf("second Merge: %v", err)
	}
	if again := mustString(t, dst); again != out {
		t.Fatalf("not idempotent\ndoc:\n%s\npatch:\n%s\nonce:\n%s\ntwice:\n%s", dstBefore, patchBefore, out, again)
	}
}

func mustString(t *testing.T, n *yaml.RNode) string {
	s, err := n.String()
	if err != nil {
		t.Fatalf("serialize: %v", err)
	}
	return s
}

func hasDirectiveKey(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if k == keyPatch || k == keyRetainKeys || strings.HasPrefix(k, prefixOrder) || strings.HasPrefix(k, prefixDelete) {
				return true
			}
		}
	}
	for _, c := range n.Content {
		if c.Kind != yaml.AliasNode && hasDirectiveKey(c) {
			return true
		}
	}
	return false
}

// byteReader hands out the fuzzer's bytes, then zeros. It also remembers
// the nodes generated so far, for aliases to refer to.
type byteReader struct {
	b    []byte
	i    int
	done []*yaml.Node
}

func (r *byteReader) next() int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1])
}

func parseOrGenerate(text string, r *byteReader, isPatch bool) *yaml.RNode {
	if text != "" {
		n, err := yaml.Parse(text)
		if err != nil || n == nil || n.Document() == nil {
			return nil
		}
		if n.Document().Kind == yaml.DocumentNode && len(n.Document().Content) == 0 {
			return nil
		}
		return n
	}
	r.done = r.done[:0]
	return yaml.NewRNode(genNode(r, 0, isPatch, true))
}

var (
	genKeys      = []string{"a", "b", "name", "port", "protocol", "list", "x"}
	genDirective = []string{keyPatch, keyRetainKeys, prefixOrder + "list", prefixDelete + "list", prefixOrder + "a", keyPatch, prefixDelete + "a"}
	genValues    = []string{"a", "b", "1", "TCP", "UDP", "delete", "replace", "merge", "name", "list"}
)

// genNode builds a document (or patch) node from the fuzzer's bytes: maps,
// lists, scalars, flow styles, comments and aliases of earlier nodes.
func genNode(r *byteReader, depth int, isPatch, root bool) *yaml.Node {
	n := genNode1(r, depth, isPatch, root)
	switch c := r.next(); {
	case c%13 == 1:
		n.Style |= yaml.FlowStyle
	case c%13 == 2:
		n.LineComment = "# c"
	}
	r.done = append(r.done, n)
	return n
}

func genNode1(r *byteReader, depth int, isPatch, root bool) *yaml.Node {
	kind := r.next() % 4
	if c := r.next(); !root && c%11 == 3 && len(r.done) > 0 {
		target := r.done[(c/11)%len(r.done)]
		if target.Kind != yaml.AliasNode {
			if target.Anchor == "" {
				target.Anchor = fmt.Sprintf("n%d", len(r.done))
			}
			return &yaml.Node{Kind: yaml.AliasNode, Value: target.Anchor, Alias: target}
		}
	}
	if root {
		kind = 0
	}
	if depth > 4 {
		kind = 2
	}
	switch kind {
	case 0:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
		for k := r.next() % 4; k > 0; k-- {
			var key string
			if c := r.next(); isPatch && c%5 == 0 {
				key = genDirective[(c/5)%len(genDirective)]
			} else {
				key = genKeys[c%len(genKeys)]
			}
			if keyIndex(n, key) >= 0 {
				continue
			}
			var v *yaml.Node
			switch {
			case key == keyPatch:
				v = scalarNode(genValues[r.next()%len(genValues)])
			case key == keyRetainKeys:
				v = genList(r, genKeys, false)
			case strings.HasPrefix(key, prefixOrder):
				v = genList(r, genValues, r.next()%2 == 0)
			case strings.HasPrefix(key, prefixDelete):
				v = genList(r, genValues, false)
			default:
				v = genNode(r, depth+1, isPatch, false)
			}
			n.Content = append(n.Content, scalarNode(key), v)
		}
		return n
	case 1:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
		for k := r.next() % 4; k > 0; k-- {
			n.Content = append(n.Content, genNode(r, depth+1, isPatch, false))
		}
		return n
	case 2:
		c := r.next()
		if c%7 == 0 {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: yaml.NodeTagNull, Value: "null"}
		}
		return scalarNode(genValues[c%len(genValues)])
	}
	return scalarNode(genValues[r.next()%len(genValues)])
}

// genList makes a directive's list: values, or maps of one key field.
func genList(r *byteReader, from []string, maps bool) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: yaml.NodeTagSeq}
	for k := r.next() % 4; k > 0; k-- {
		v := scalarNode(from[r.next()%len(from)])
		if maps {
			m := &yaml.Node{Kind: yaml.MappingNode, Tag: yaml.NodeTagMap}
			m.Content = append(m.Content, scalarNode(genKeys[r.next()%len(genKeys)]), v)
			v = m
		}
		n.Content = append(n.Content, v)
	}
	return n
}

func scalarNode(v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
	n.Tag = n.ShortTag()
	return n
}

// genType derives a schema type for the nodes found at one place in the
// document and the patch.
func genType(r *byteReader, nodes []*yaml.Node, depth int) *schema.Type {
	if depth > 8 || r.next()%6 == 5 {
		return nil
	}
	t := &schema.Type{RetainKeys: r.next()%4 == 0}
	fields := map[string][]*yaml.Node{}
	var names []string
	var elems []*yaml.Node
	for _, n := range nodes {
		n = yamltree.Resolve(n)
		if n == nil {
			continue
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := yamltree.Resolve(n.Content[i]).Value
				if strings.HasPrefix(k, "$") {
					continue
				}
				if _, ok := fields[k]; !ok {
					names = append(names, k)
				}
				fields[k] = append(fields[k], n.Content[i+1])
			}
		case yaml.SequenceNode:
			elems = append(elems, n.Content...)
		}
	}
	if len(names) > 0 {
		t.Fields = map[string]*schema.Type{}
		for _, k := range names {
			t.Fields[k] = genType(r, fields[k], depth+1)
		}
	}
	if len(elems) > 0 {
		t.Elem = genType(r, elems, depth+1)
		t.Strategy = schema.ListStrategy(r.next() % 3)
		if t.Strategy == schema.MergeByKeys {
			var candidates []string
			for _, e := range elems {
				if e = yamltree.Resolve(e); e.Kind == yaml.MappingNode {
					for i := 0; i+1 < len(e.Content); i += 2 {
						if k := yamltree.Resolve(e.Content[i]).Value; !slices.Contains(candidates, k) && !strings.HasPrefix(k, "$") {
							candidates = append(candidates, k)
						}
					}
				}
			}
			if len(candidates) == 0 {
				candidates = genKeys
			}
			for n := 1 + r.next()%2; n > 0; n-- {
				k := candidates[r.next()%len(candidates)]
				if !slices.Contains(t.Keys, k) {
					t.Keys = append(t.Keys, k)
				}
			}
			for _, k := range t.Keys {
				if r.next()%3 == 0 {
					if t.KeyDefaults == nil {
						t.KeyDefaults = map[string]string{}
					}
					t.KeyDefaults[k] = genValues[r.next()%len(genValues)]
				}
			}
		}
	}
	return t
}
