package fnrun

// ReadsLean reports whether the lean reader takes the input itself rather
// than handing it to kyaml's: the differential tests check the fast path
// is the one they compare.
func ReadsLean(raw []byte) bool {
	_, ok := readLean(raw)
	return ok
}

// TakenBy is takenBy, for the test that keeps it in step with the
// functions' Kinds.
var TakenBy = takenBy
