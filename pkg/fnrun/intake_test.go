package fnrun

import (
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/budget"
	"github.com/patchwork-krm/patchwork/internal/dupkeys"
	"github.com/patchwork-krm/patchwork/internal/inherit"
	"github.com/patchwork-krm/patchwork/internal/redact"
)

// intakeDocs are documents for the intake walk: plain, with << keys and
// aliases, with keys given twice (alike and spelled otherwise), comments
// and styles.
var intakeDocs = []string{
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  k: v # why\n",
	"base: &b {x: 1, y: [1, 2]}\nuse:\n  <<: *b\n  z: 3\nlist: [*b, *b]\n",
	"a: 1\nb:\n  c: 2\n  c: 3\n",
	"a:\n- true: 1\n  True: 2\n",
	"# head\nk: |\n  text\n# foot\n",
	"deep:\n  - - - {a: {b: {c: [x, y, 'z']}}}\n",
}

// One walk must learn what the separate walks it replaced did: each
// item's Fingerprint (taken after the << keys are untagged), the size
// budget.Measure counts, and the documents dupkeys.Find finds keys given
// twice in.
func TestIntakeAsTheWalksItReplaced(t *testing.T) {
	var items, separate []*yaml.RNode
	for _, d := range intakeDocs {
		items = append(items, yaml.MustParse(d))
		separate = append(separate, yaml.MustParse(d))
	}
	config := yaml.MustParse("kind: Test\nkind: Test\n")
	in := takeIn(config, items, func(*yaml.RNode) bool { return true }, &redact.Set{})

	var roots []*yaml.Node
	var dups []*yaml.RNode
	for i, it := range separate {
		if len(dupkeys.Find(it.YNode())) > 0 {
			dups = append(dups, items[i])
		}
		inherit.Untag(it.YNode())
		if got, want := in.prints[items[i].YNode()], Fingerprint(it); got != want {
			t.Errorf("document %d: fingerprint %x, Fingerprint says %x", i, got, want)
		}
		if !in.unchanged(items[i]) {
			t.Errorf("document %d: changed, though nothing touched it", i)
		}
		roots = append(roots, it.YNode())
	}
	roots = append(roots, config.YNode())
	if want := budget.Measure(roots...); in.size != want {
		t.Errorf("size %+v, budget.Measure says %+v", in.size, want)
	}
	dups = append(dups, config)
	if len(in.dups) != len(dups) {
		t.Fatalf("%d documents with a key given twice, want %d", len(in.dups), len(dups))
	}
	for i := range dups {
		if in.dups[i] != dups[i] {
			t.Errorf("document %d with a key given twice: %s", i, in.dups[i].MustString())
		}
	}
	if strings.Contains(items[1].MustString(), "!!merge") {
		t.Errorf("<< key still tagged:\n%s", items[1].MustString())
	}
	items[0].YNode().Content[1].Value = "Secret"
	if in.unchanged(items[0]) {
		t.Error("an item changed after the intake reads as unchanged")
	}
}

// An item holding a << key that the function does not touch is written
// as the bytes it was read from, in a ResourceList as in a standalone run:
// the runner's untagging of the key is no change of the item (before, the
// fingerprint was taken before the untagging, and such an item was
// written anew, its flow maps re-spaced).
func TestUntouchedInheritingItemCopied(t *testing.T) {
	in := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: { name: inheriting }
  data:
    base: &base { mode: fast }
    other:
      <<: *base
      extra:   "spaced"
functionConfig:
  apiVersion: fn.patchwork.dev/v1alpha1
  kind: Test
  metadata:
    name: t
`
	out, o, err := RunBytes(testFunction(func(*Request) error { return nil }), []byte(in))
	if err != nil || o.Failed {
		t.Fatal(err, o.Results)
	}
	if string(out) != in {
		t.Errorf("untouched item rewritten:\n%s", out)
	}
}
