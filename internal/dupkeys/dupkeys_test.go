package dupkeys

import (
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func TestFind(t *testing.T) {
	var big strings.Builder
	for i := range 20 {
		fmt.Fprintf(&big, "  k%d: v\n", i)
	}
	for _, tt := range []struct {
		name, doc string
		want      []string // "" = accepted
	}{
		{"distinct keys", "kind: A\nmetadata: {name: a}\ndata: {a: 1, b: 2}\n", nil},
		{"top level", "kind: A\nmetadata: {name: a}\nkind: B\n", []string{`the key "kind" is given twice at the top level (lines 1 and 3 of the resource)`}},
		{"large map", "kind: A\nmetadata: {name: a}\ndata:\n" + big.String() + "  k7: w\n",
			[]string{`data: the key "k7" is given twice in data (lines 11 and 24 of the resource)`}},
		{"in a list, key with a dot", "kind: A\nmetadata: {name: a}\nspec:\n  a.b:\n  - {x: 1}\n  - {x: 1, x: 2}\n",
			[]string{`spec.a\.b.1: the key "x" is given twice in spec.a\.b.1 (both on line 6 of the resource)`}},
		{"three times", "kind: A\nmetadata: {name: a}\nd: {a: 1, a: 2, a: 3}\n", []string{`(both on line 3`, `(both on line 3`}},
		{"<< keys may repeat", "kind: A\nmetadata: {name: a}\nx: &x {a: 1}\ny: &y {b: 1}\nz:\n  <<: *x\n  <<: *y\n", nil},
		{"a quoted << is a plain key", "kind: A\nmetadata: {name: a}\nz: {'<<': 1, '<<': 2}\n", []string{`the key "<<"`}},
		{"aliases are not followed", "kind: A\nmetadata: {name: a}\nx: &x {a: 1}\ny: [*x, *x]\n", nil},
		// issue 19: keys spelled differently that readers resolve alike
		{"true and True", "kind: A\nmetadata: {name: a}\ndata:\n  true: a\n  True: b\n",
			[]string{`data: the keys "true" and "True" in data (lines 4 and 5 of the resource) are one key to YAML readers`}},
		{"80 and 0x50", "kind: A\nmetadata: {name: a}\nspec: {80: a, 0x50: b}\n", []string{`the keys "80" and "0x50" in spec`}},
		{"~ and null", "kind: A\nmetadata: {name: a}\nspec: {~: a, null: b}\n", []string{`the keys "~" and "null" in spec`}},
		{"1 and 1.0", "kind: A\nmetadata: {name: a}\nspec: {1: a, 1.0: b}\n", []string{`the keys "1" and "1.0" in spec`}},
		{"yes and on for YAML 1.1", "kind: A\nmetadata: {name: a}\nspec: {yes: a, on: b}\n", []string{`the keys "yes" and "on" in spec`}},
		{"quoted strings stay apart", "kind: A\nmetadata: {name: a}\nspec: {'true': a, 'True': b, '1': c, '1.0': d}\n", nil},
		{"a string and a number", "kind: A\nmetadata: {name: a}\nspec: {'80': a, 0x50: b}\n", []string{`the keys "80" and "0x50" in spec`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			n, err := yaml.Parse(tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			found := Find(n.YNode())
			if len(tt.want) == 0 {
				if len(found) > 0 {
					t.Fatalf("refused: %v", found)
				}
				return
			}
			var msgs []string
			for _, d := range found {
				msgs = append(msgs, d.Path+": "+d.Message())
			}
			rs := strings.Join(msgs, "\n")
			for _, w := range tt.want {
				if !strings.Contains(rs, w) {
					t.Errorf("error %q\nwant it to contain %q", rs, w)
				}
			}
			if c := len(found); c != len(tt.want) {
				t.Errorf("%d duplicates reported, want %d:\n%s", c, len(tt.want), rs)
			}
		})
	}
}

// A duplicate in a secret document is told by its lines alone: the keys
// and the map's path say what the document holds.
func TestMessageHidingKeys(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("creds:\n  hunter2: a\n  hunter2: b\n"), &doc); err != nil {
		t.Fatal(err)
	}
	d := Find(&doc)
	if len(d) != 1 {
		t.Fatalf("found %v, want one duplicate", d)
	}
	msg := d[0].MessageHidingKeys("the value")
	if strings.Contains(msg, "hunter2") || strings.Contains(msg, "creds") || !strings.Contains(msg, "lines 2 and 3 of the value") {
		t.Errorf("message %q shows a key or the path, or not the lines", msg)
	}
}
