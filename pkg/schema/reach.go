package schema

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/internal/yamlstream"
	"github.com/patchwork-krm/patchwork/internal/yamltree"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
)

// A declaration that leads to no list does nothing: the lists it meant
// (spec.tasks, declared as spec.task) stay atomic, and a patch replaces
// them whole. Nothing fails, so the user who declared keys must be told:
// Reach says where a declaration's path leads in one document, and when
// it is no list, where the way stopped, why, and what is near.

// Reach is what a declaration's path leads to in one document.
type Reach struct {
	// Lists counts the lists the path leads to.
	Lists int
	// At and Why say, when it leads to no list, where the first way that
	// did not stopped and why: "spec.task", `spec has no key "task" (did
	// you mean spec.tasks?)`.
	At, Why string
}

// ReachOptions say how Reach reads a document.
type ReachOptions struct {
	// Root names the document in messages: "the resource", "the value".
	Root string
	// Strings: a string on the way is the JSON or YAML document it holds,
	// and the path goes on inside it (multi-patch's patches into strings).
	Strings bool
	// Secret: the document is a Secret's, so no key and no value of it is
	// named.
	Secret bool
}

// Reach follows l.Path through root, as fieldpath.Walk goes (every way a
// wildcard or a matcher opens), and says what it leads to.
func (l ListKeys) Reach(root *yaml.Node, o ReachOptions) Reach {
	rc := reacher{root: root, path: l.Path, o: o}
	rc.follow(root, 0, nil)
	if rc.r.Lists > 0 {
		rc.r.At, rc.r.Why = "", "" // other ways' dead ends are no matter
	}
	return rc.r
}

type reacher struct {
	root *yaml.Node
	path fieldpath.Path
	o    ReachOptions
	r    Reach
}

// follow walks path[from:] from n, which before leads to.
func (rc *reacher) follow(n *yaml.Node, from int, before fieldpath.Path) {
	ends, _ := fieldpath.Walker[*yaml.Node]{Tree: yamltree.Tree{}}.Walk(n, rc.path, from) // yaml trees have no lookup errors
	for _, e := range ends {
		at := append(slices.Clone(before), fieldpath.Taken(yamltree.Tree{}, e.Steps)...)
		if rc.o.Secret {
			// the keys a wildcard passed are the Secret's: the
			// declaration's own segments name the place instead
			at = slices.Clone(rc.path[:e.At])
		}
		node := yamltree.Resolve(e.Node)
		switch {
		case !e.Dead && node.Kind == yaml.SequenceNode:
			rc.r.Lists++
		case e.Dead && rc.o.Strings && isString(node):
			rc.intoString(node, e.At, at)
		case rc.r.Why == "" && !e.Dead:
			rc.r.At, rc.r.Why = at.String(), fmt.Sprintf("%s is %s, not a list%s", rc.where(at), rc.describe(node), rc.listsIn(node))
		case rc.r.Why == "":
			rc.r.At, rc.r.Why = rc.deadEnd(node, e, at)
		}
	}
}

// intoString goes on with path[i:] inside the document string s, at at,
// holds: a map or a list (a string that reads as a scalar is only that).
func (rc *reacher) intoString(s *yaml.Node, i int, at fieldpath.Path) {
	docs, err := yamlstream.Split([]byte(s.Value))
	if err != nil || len(docs) == 0 || docs[0].Kind != yaml.MappingNode && docs[0].Kind != yaml.SequenceNode {
		if rc.r.Why == "" {
			rc.r.At = at.String()
			rc.r.Why = fmt.Sprintf("%s is a string that holds no JSON or YAML document, so %s selects nothing there", rc.where(at), rc.path[i])
		}
		return
	}
	rc.follow(docs[0], i, at)
}

// deadEnd says why the walk's next segment selects nothing at end e, in
// node, which at leads to.
func (rc *reacher) deadEnd(node *yaml.Node, e fieldpath.End[*yaml.Node], at fieldpath.Path) (string, string) {
	seg := rc.path[e.At]
	full := append(slices.Clone(at), seg).String()
	where := rc.where(at)
	switch {
	case node.Kind == yaml.MappingNode && e.Sel.Missing:
		return full, fmt.Sprintf("%s has no key %q%s", where, seg.Key, rc.near(node, at, seg.Key))
	case node.Kind == yaml.SequenceNode && len(node.Content) == 0:
		return at.String(), where + " is an empty list"
	case node.Kind == yaml.SequenceNode && e.Sel.Missing:
		return full, fmt.Sprintf("no element of %s matches %s", where, seg)
	}
	return at.String(), fmt.Sprintf("%s is %s, so %s selects nothing there", where, rc.describe(node), seg)
}

func (rc *reacher) where(at fieldpath.Path) string {
	if len(at) == 0 {
		return rc.o.Root
	}
	return at.String()
}

func (rc *reacher) describe(n *yaml.Node) string { return yamltree.DescribeSecret(n, rc.o.Secret) }

// near says what key of map n a missing key most likely meant, or where
// lists of that name are in the document: " (did you mean spec.tasks?)".
// A Secret's keys are not named.
func (rc *reacher) near(n *yaml.Node, at fieldpath.Path, missing string) string {
	if rc.o.Secret {
		return ""
	}
	if k := suggest.Nearest(missing, mapKeys(n)); k != "" {
		return fmt.Sprintf(" (did you mean %s?)", append(slices.Clone(at), fieldSeg(k)))
	}
	if last := rc.path[len(rc.path)-1]; last.Kind == fieldpath.Field {
		switch found := listsNamed(rc.root, last.Key); len(found) {
		case 0:
		case 1:
			return fmt.Sprintf(" (a list named %q is at %s)", last.Key, found[0])
		default:
			return fmt.Sprintf(" (lists named %q are at %s)", last.Key, strings.Join(found, ", "))
		}
	}
	return ""
}

// listsIn names the lists a map holds, where a declaration stopped at
// the map: " (lists in it: env, sidecars)".
func (rc *reacher) listsIn(n *yaml.Node) string {
	if rc.o.Secret || n.Kind != yaml.MappingNode {
		return ""
	}
	var lists []string
	for j := 0; j+1 < len(n.Content); j += 2 {
		if yamltree.Resolve(n.Content[j+1]).Kind == yaml.SequenceNode {
			lists = append(lists, yamltree.Resolve(n.Content[j]).Value)
		}
	}
	if len(lists) == 0 || len(lists) > 8 {
		return ""
	}
	return " (lists in it: " + strings.Join(lists, ", ") + ")"
}

func mapKeys(n *yaml.Node) []string {
	keys := make([]string, 0, len(n.Content)/2)
	for j := 0; j+1 < len(n.Content); j += 2 {
		keys = append(keys, yamltree.Resolve(n.Content[j]).Value)
	}
	return keys
}

func fieldSeg(key string) fieldpath.Segment {
	return fieldpath.Segment{Kind: fieldpath.Field, Key: key}
}

func isString(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == yaml.NodeTagString
}

// The search for lists of a name stays small: a few places, not deep.
const (
	listsNamedMost  = 3
	listsNamedDepth = 12
)

// listsNamed returns the paths, as a declaration writes them (* for a
// list's elements), of the lists the document root holds under key name.
func listsNamed(root *yaml.Node, name string) []string {
	var found []string
	var visit func(n *yaml.Node, at fieldpath.Path)
	visit = func(n *yaml.Node, at fieldpath.Path) {
		n = yamltree.Resolve(n)
		if n == nil || len(at) > listsNamedDepth || len(found) >= listsNamedMost {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for j := 0; j+1 < len(n.Content); j += 2 {
				key, v := yamltree.Resolve(n.Content[j]).Value, n.Content[j+1]
				p := append(slices.Clone(at), fieldSeg(key))
				if key == name && yamltree.Resolve(v).Kind == yaml.SequenceNode && !slices.Contains(found, p.String()) {
					found = append(found, p.String())
				}
				visit(v, p)
			}
		case yaml.SequenceNode:
			for _, el := range n.Content {
				visit(el, append(slices.Clone(at), fieldpath.Segment{Kind: fieldpath.Wildcard}))
			}
		}
	}
	visit(root, nil)
	return found
}
