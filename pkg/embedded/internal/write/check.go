package write

import yaml "go.yaml.in/yaml/v3"

// Check is what the edited text must hold at one address: the value
// written there, or the entries the map or list there lost and gained.
type Check struct {
	Want *yaml.Node // as it must read back
	// Gone holds the indexes of the entries deleted, and Added the
	// entries appended, in order.
	Gone  map[int]bool
	Added []Added
}

// Added is an entry added to a map or list, as it must read back.
type Added struct {
	Key  string
	Want *yaml.Node
}

// Entries reports whether the check is of entries lost and gained rather
// than of a value written.
func (c Check) Entries() bool { return len(c.Gone) > 0 || len(c.Added) > 0 }
