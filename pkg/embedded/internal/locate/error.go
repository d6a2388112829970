package locate

// Error is a failure to find or edit a value, and where it happened.
// Package embedded hands it to its callers as embedded.Error.
type Error struct {
	// Segment is the index, in the path given, of the segment being
	// resolved when it failed.
	Segment int
	Msg     string
	// Missing is set when the segment names a map key, or a list
	// element, that is not there and that Options.Create would add.
	Missing bool
	// Near is, for a missing map key, the key there nearest to it (a
	// likely typo), unless the text is secret; or "".
	Near string
	// NamedJSON is set when the text is valid YAML but not the JSON the
	// name of the key holding it (….json) says it is (Options.Format
	// overrides that).
	NamedJSON bool
	// GivenJSON is set when the text is valid YAML but not JSON, the
	// format the caller gave (Options.Format).
	GivenJSON bool
	// Ambiguous is set when a map gives a key twice, or spells it two
	// ways readers take for one key: the document is there, but which of
	// the two an edit means cannot be told.
	Ambiguous bool
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Shift moves an error found inside a string nested in the text to the
// segment numbering of the path that led there, by segments before it.
func Shift(err error, by int) error {
	if e, ok := err.(*Error); ok {
		shifted := *e
		shifted.Segment += by
		return &shifted
	}
	return err
}
