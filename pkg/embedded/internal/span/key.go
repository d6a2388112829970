package span

// keyIndexMin is the size from which a map's keys are looked up in an
// index: a batch of edits looks into a large map once per change.
const keyIndexMin = 16

// Key returns the index of the scalar key of map n that reads key: -1 when
// there is none, and twice set when there are two.
func (t *Tree) Key(n *Node, key string) (index int, twice bool) {
	t.Open(n)
	if len(n.Keys) > keyIndexMin {
		return n.indexedKey(key)
	}
	found := -1
	for j, k := range n.Keys {
		if k.Kind == Scalar && k.Value == key {
			if found >= 0 {
				return 0, true
			}
			found = j
		}
	}
	return found, false
}

// indexedKey is Key through an index of the map's keys, built on first
// use.
func (n *Node) indexedKey(key string) (index int, twice bool) {
	if n.keyIndex == nil {
		n.keyIndex = keyIndexOf(n.Keys)
	}
	j, ok := n.keyIndex[key]
	switch {
	case !ok:
		return -1, false
	case j < 0:
		return 0, true
	}
	return j, false
}

// keyIndexOf maps each scalar key to its index, or to -1 when it appears
// twice.
func keyIndexOf(keys []*Node) map[string]int {
	index := make(map[string]int, len(keys))
	for j, k := range keys {
		if k.Kind != Scalar {
			continue
		}
		if _, dup := index[k.Value]; dup {
			index[k.Value] = -1 // appears twice
			continue
		}
		index[k.Value] = j
	}
	return index
}
