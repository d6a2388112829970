package fieldpath

// What a segment selects is decided here, once, for every kind of document a
// path walks: the kyaml nodes of resources (package replacement) and the
// span trees of JSON and YAML held in strings (package embedded). Each
// walker answers a few questions about its nodes (Tree) and keeps for
// itself what it does with the answer: reading, creating what is missing,
// and the words of its messages.

// Shape is what a node is, as far as a path is concerned.
type Shape uint8

const (
	// Other is anything a segment cannot go into.
	Other Shape = iota
	// Map is a mapping.
	Map
	// List is a sequence.
	List
	// Scalar is a single value.
	Scalar
)

// Tree answers what Select needs to know of a document's nodes. N is the
// walker's node type; aliases are the walker's to follow before it asks.
type Tree[N any] interface {
	// Shape says what n is.
	Shape(n N) Shape
	// Len is the number of entries of a map, or of elements of a list.
	Len(n N) int
	// Lookup is the position of key in map n, -1 when it has none; an
	// error when it cannot tell (the key appears twice).
	Lookup(n N, key string) (int, error)
	// Element is the i-th element of list n.
	Element(n N, i int) N
	// Field is the value of key in map n, when it is a scalar: what a
	// matcher compares. ok is false when there is no such scalar.
	Field(n N, key string) (value string, ok bool)
	// Value is scalar n's value.
	Value(n N) string
}

// Selection is what a segment selects in a node: the positions of the
// map entries or list elements it leads to, or why it leads nowhere.
type Selection struct {
	Positions []int
	// Missing is set when the map has no such key, the list no element matching, or
	// the index is the list's length: what creating would add.
	Missing bool
	// OutOfRange is set for an index past the end of the list.
	OutOfRange bool
	// Mismatch is set when the segment does not apply to a node of this shape (a
	// matcher on a map, a key on a list, anything on a scalar).
	Mismatch bool
	// Unanchored, for a matcher: the positions of the elements kustomize
	// 5.8 would also select in a target, where it matches the value
	// anywhere ([name=app] selecting app-sidecar), and this one does not.
	// Walkers warn about them: a config written for kustomize would
	// silently change meaning otherwise.
	Unanchored []int
}

// Select says what seg selects in n:
//
//	           a map                      a list
//	Field      the key's entry            -
//	Index      the key with those digits  the element at that position
//	Match      -                          every element that Matches
//	Wildcard   every entry                every element
func Select[N any](t Tree[N], n N, seg Segment) (Selection, error) {
	switch t.Shape(n) {
	case Map:
		return selectInMap(t, n, seg)
	case List:
		return selectInList(t, n, seg), nil
	}
	return Selection{Mismatch: true}, nil
}

func selectInMap[N any](t Tree[N], n N, seg Segment) (Selection, error) {
	switch seg.Kind {
	case Field, Index:
		j, err := t.Lookup(n, seg.Key)
		if err != nil || j < 0 {
			return Selection{Missing: err == nil}, err
		}
		return Selection{Positions: []int{j}}, nil
	case Wildcard:
		return Selection{Positions: all(t.Len(n))}, nil
	}
	return Selection{Mismatch: true}, nil
}

func selectInList[N any](t Tree[N], n N, seg Segment) Selection {
	switch seg.Kind {
	case Index:
		switch size := t.Len(n); {
		case seg.Index < size:
			return Selection{Positions: []int{seg.Index}}
		case seg.Index == size:
			return Selection{Missing: true}
		}
		return Selection{OutOfRange: true}
	case Wildcard:
		return Selection{Positions: all(t.Len(n))}
	case Match:
		var matched, loose []int
		for j := 0; j < t.Len(n); j++ {
			el := t.Element(n, j)
			switch v, ok := matchedValue(t, el, seg); {
			case ok && seg.MatchesValue(v):
				matched = append(matched, j)
			case ok && seg.KustomizeMatchesValue(v):
				loose = append(loose, j)
			}
		}
		return Selection{Positions: matched, Missing: len(matched) == 0, Unanchored: loose}
	}
	return Selection{Mismatch: true}
}

// Matches reports whether list element el is one [key=value] selects: a map
// whose field key is a scalar that value matches, or for [=value] a scalar
// element value matches (Segment.MatchesValue: the whole value).
func Matches[N any](t Tree[N], el N, seg Segment) bool {
	v, ok := matchedValue(t, el, seg)
	return ok && seg.MatchesValue(v)
}

// matchedValue is the value of el a matcher looks at: the scalar field Key
// of a map, or for [=value] the scalar element itself.
func matchedValue[N any](t Tree[N], el N, seg Segment) (string, bool) {
	if seg.Key == "" {
		if t.Shape(el) != Scalar {
			return "", false
		}
		return t.Value(el), true
	}
	if t.Shape(el) != Map {
		return "", false
	}
	return t.Field(el, seg.Key)
}

func all(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
