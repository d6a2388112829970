package fieldpath_test

import (
	"errors"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

var errTooBig = errors.New("too big")

// FuzzWalk holds the walk to what it promises for any path and document:
// the way to each place, named exactly (Taken), leads to that place alone;
// the path reaches the steps of every end (Reaches); a dead end's segment
// selects nothing there.
func FuzzWalk(f *testing.F) {
	doc := "spec:\n  containers:\n  - {name: app, ports: [80, 443]}\n  - {name: app-debug, ports: []}\n  - &x {name: init}\n  - *x\ndata: {a.b: '1', '8080': x, '': y}\n"
	for _, p := range []string{
		"spec.containers.*.ports.0", "spec.containers.[name=app.*].name", `data.a\.b`, "data.[8080]",
		"data.8080", "spec.containers.[ports=80]", "*.*", "spec.containers.9", "spec.containers.4", "data.a.b",
	} {
		f.Add(doc, p)
	}
	f.Fuzz(func(t *testing.T, text, pathText string) {
		path, err := fieldpath.Parse(pathText)
		if err != nil {
			return
		}
		root, err := yaml.Parse(text)
		if err != nil {
			return
		}
		tree := yamltree.Tree{}
		// Aliases make a walk as big as the document they expand to: an
		// alias bomb under wildcards is cut short.
		visits := 0
		budget := func(*yaml.Node, int, *fieldpath.Selection) error {
			if visits++; visits > 10000 {
				return errTooBig
			}
			return nil
		}
		ends, err := fieldpath.Walker[*yaml.Node]{Tree: tree, Check: budget}.Walk(root.YNode(), path, 0)
		switch {
		case err == errTooBig:
			return
		case err != nil:
			t.Fatalf("yaml trees have no lookup errors: %v", err)
		}
		for _, e := range ends {
			if !fieldpath.Reaches(tree, path, e.Steps) {
				t.Errorf("%s does not reach %s, where its walk went", path, fieldpath.Taken(tree, e.Steps))
			}
			if e.Dead {
				if sel, _ := fieldpath.Select(tree, e.Node, path[e.At]); len(sel.Positions) != 0 {
					t.Errorf("a dead end at %s where %s selects %v", fieldpath.Taken(tree, e.Steps), path[e.At], sel.Positions)
				}
				continue
			}
			way := fieldpath.Taken(tree, e.Steps)
			again, _ := fieldpath.Walk(tree, root.YNode(), way)
			if len(again) != 1 || again[0].Dead || again[0].Node != e.Node {
				t.Errorf("%s, the way %s took, leads to %d ends, not to the place alone", way, path, len(again))
			}
		}
	})
}
