package fieldpath

import (
	"slices"
	"strconv"

	"github.com/patchwork-krm/patchwork/internal/budget"
)

// A walk follows a whole path through a tree, segment by segment, as Select
// says: it is the same for every walker (replacement's sources and targets,
// multi-patch's strings, the lists mergeKeys declare). What a walker does at
// the places a path leads to, and at its dead ends (create what is missing,
// go into a string holding a document, say what went wrong), stays the
// walker's own.

// Walkable is a Tree a walk can go down.
type Walkable[N any] interface {
	Tree[N]
	// Child is the node at a position Select gave in n: a map entry's
	// value, or a list element.
	Child(n N, pos int) N
	// Key is the key of map n's entry at pos.
	Key(n N, pos int) string
}

// Step is one step of a walk: the node it starts from and the position it
// takes there (a map entry or a list element, as Select gives it).
type Step[N any] struct {
	Node N
	Pos  int
}

// End is where a walk ends: a place the whole path leads to, or a dead
// end, a node where the segment to take next selects nothing.
type End[N any] struct {
	Node N
	// Dead is set at a dead end.
	Dead bool
	// At is the segment a dead end stops at, path[At] selecting nothing in
	// Node; len(path) at a place the path leads to.
	At int
	// Steps is the way from the node the walk started at to Node.
	Steps []Step[N]
	// Sel is what path[At] selects at a dead end, which says why it
	// selects nothing: Missing, OutOfRange, Mismatch, or none of those for
	// a wildcard in an empty map or list (or a selection Check emptied).
	Sel Selection
}

// Walker walks paths through the trees of one kind of node.
type Walker[N any] struct {
	Tree Walkable[N]
	// Check, if set, sees what each segment selects before the walk goes
	// on from there: it may narrow sel.Positions (a wildcard passing over
	// entries the caller keeps), note sel.Unanchored, or end the whole walk
	// with an error (a source that must name one value).
	Check func(n N, i int, sel *Selection) error
	// Budget is charged for every end the walk meets, and the steps to it:
	// a wildcard path over YAML aliases of aliases meets billions (nil: a
	// budget of the walk's own).
	Budget *budget.Budget
}

// Walk follows path[from:] from n: it selects each segment in turn and goes
// on at every position selected, depth first and in order. It returns the
// ends it met, in that order: the places the path leads to and the dead
// ends. When a wildcard or a matcher selects several elements, some may
// lead to places and some to dead ends; which dead ends matter is the
// caller's to say (kustomize passes over them when any place is reached).
// The error is the Tree's (a key it cannot look up), Check's, or the
// budget's.
func (w Walker[N]) Walk(n N, path Path, from int) ([]End[N], error) {
	var ends []End[N]
	w.Budget = budget.Or(w.Budget)
	err := w.walk(n, path, from, nil, &ends)
	return ends, err
}

func (w Walker[N]) walk(n N, path Path, i int, steps []Step[N], ends *[]End[N]) error {
	if i == len(path) {
		*ends = append(*ends, End[N]{Node: n, At: i, Steps: steps})
		return w.Budget.Nodes(1 + len(steps))
	}
	sel, err := Select(w.Tree, n, path[i])
	if err != nil {
		return err
	}
	if w.Check != nil {
		if err := w.Check(n, i, &sel); err != nil {
			return err
		}
	}
	if len(sel.Positions) == 0 {
		*ends = append(*ends, End[N]{Node: n, Dead: true, At: i, Steps: steps, Sel: sel})
		return w.Budget.Nodes(1 + len(steps))
	}
	for _, pos := range sel.Positions {
		// Each way gets its own steps: the siblings' must not share them.
		next := append(steps[:len(steps):len(steps)], Step[N]{Node: n, Pos: pos})
		if err := w.walk(w.Tree.Child(n, pos), path, i+1, next, ends); err != nil {
			return err
		}
	}
	return nil
}

// Walk follows path from root in t (Walker.Walk without a Check).
func Walk[N any](t Walkable[N], root N, path Path) ([]End[N], error) {
	return Walker[N]{Tree: t}.Walk(root, path, 0)
}

// Taken is the path that names each of the steps exactly: a map entry by
// its key, a list element by its index. Messages use it to say where a
// wildcard or a matcher led.
func Taken[N any](t Walkable[N], steps []Step[N]) Path {
	p := make(Path, len(steps))
	for k, st := range steps {
		if t.Shape(st.Node) == Map {
			p[k] = Segment{Kind: Field, Key: t.Key(st.Node, st.Pos)}
		} else {
			p[k] = Segment{Kind: Index, Index: st.Pos, Key: strconv.Itoa(st.Pos)}
		}
	}
	return p
}

// Reaches reports whether path goes the way steps went: each of its first
// len(steps) segments selects the position its step took (a key that
// entry, an index that very element, a matcher or a wildcard among
// others). A path shorter than steps does not reach their end.
func Reaches[N any](t Tree[N], path Path, steps []Step[N]) bool {
	if len(path) < len(steps) {
		return false
	}
	for k, st := range steps {
		sel, err := Select(t, st.Node, path[k])
		if err != nil || !slices.Contains(sel.Positions, st.Pos) {
			return false
		}
	}
	return true
}
