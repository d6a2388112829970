package span

// SyntaxError is a text that does not parse, and where it fails.
type SyntaxError struct {
	Msg string

	text       string
	yamlBreaks bool
	// offset is the byte offset of the failure, -1 when the parser named
	// no place.
	offset int
	// lineOnly is set when yaml.v3 reported a line but no column;
	// offset is then the line's start.
	lineOnly bool
}

// Error returns the parser's message, without the position.
func (e *SyntaxError) Error() string { return e.Msg }

// Position returns the 1-based line and column of the failure: line 0 when
// the parser named no place, column 0 when it named only a line. It is
// worked out when asked for, as only a message needs it.
func (e *SyntaxError) Position() (line, col int) {
	if e.offset < 0 {
		return 0, 0
	}
	line, col = position(e.text, LineStarts(e.text, e.yamlBreaks), e.offset)
	if e.lineOnly {
		col = 0
	}
	return line, col
}

// errorAt is a syntax error at offset off of a YAML document.
func (t *Tree) errorAt(off int, msg string) *SyntaxError {
	return &SyntaxError{Msg: msg, text: t.Text, yamlBreaks: true, offset: off}
}
