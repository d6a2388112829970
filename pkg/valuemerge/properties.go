package valuemerge

import (
	"fmt"
	"strings"
	"unicode/utf16"
)

// Java .properties, read as java.util.Properties.load reads them: lines
// end in \n, \r\n or \r; leading white space (space, tab, form feed) is
// skipped; a line whose first other character is # or ! is a comment; a
// line ending in an odd number of backslashes continues on the next, whose
// leading white space is skipped (a blank continuation ends it); the key
// ends at the first unescaped =, : or white space, and one = or : with
// white space around it separates it from the value; \t \n \r \f \uXXXX
// and \x (x itself) are escapes in keys and values. No Go library reads
// exactly this (github.com/magiconair/properties differs on \r\n inside a
// continued value and on continued keys), so it is written here, by the
// specification, and fuzzed against that library where the two agree.

func isPropSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

func readProperties(s, which string) ([]entry, error) {
	if off := invalidUTF8(s); off >= 0 {
		line, col := lineCol(s, off)
		return nil, &ParseError{Which: which, Format: Properties, Line: line, Column: col, Msg: "invalid UTF-8"}
	}
	lines := naturalLines(s)
	var out []entry
	from := -1 // start of the comment lines right above, -1 when none
	for i := 0; i < len(lines); {
		l := lines[i]
		p := l.start
		for p < l.contentEnd && isPropSpace(s[p]) {
			p++
		}
		switch {
		case p == l.contentEnd:
			from = -1
			i++
			continue
		case s[p] == '#' || s[p] == '!':
			if from < 0 {
				from = l.start
			}
			i++
			continue
		}
		e, next, err := readLogical(s, lines, i, p, which)
		if err != nil {
			return nil, err
		}
		e.from = e.start
		if from >= 0 {
			e.from = from
		}
		from = -1
		out = append(out, e)
		i = next
	}
	return out, nil
}

// readLogical reads the entry whose first line is lines[i], its content
// starting at p; it returns the entry and the index of the line after it.
func readLogical(s string, lines []natLine, i, p int, which string) (entry, int, error) {
	var buf []byte
	var offs []int // the source offset of each byte of buf
	j, first := i, p
	open := false
	for {
		ln := lines[j]
		begin := len(buf)
		for k := p; k < ln.contentEnd; k++ {
			buf = append(buf, s[k])
			offs = append(offs, k)
		}
		slashes := 0
		for k := len(buf) - 1; k >= begin && buf[k] == '\\'; k-- {
			slashes++
		}
		if slashes%2 == 0 {
			break
		}
		buf, offs = buf[:len(buf)-1], offs[:len(offs)-1]
		if j+1 == len(lines) {
			open = true // at the end of the text the backslash is dropped
			break
		}
		j++
		p = lines[j].start
		for p < lines[j].contentEnd && isPropSpace(s[p]) {
			p++
		}
		if p == lines[j].contentEnd {
			break // a blank continuation line ends the entry
		}
	}
	keyLen, valueStart, hasSep := splitKey(buf)
	at := func(k int) int {
		switch {
		case k < len(offs):
			return offs[k]
		case len(offs) > 0:
			return offs[len(offs)-1] + 1
		}
		return first // a lone continuation: an empty key and value
	}
	line := i + 1
	key, err := unescapeProperties(buf[:keyLen])
	if err == nil {
		var value string
		value, err = unescapeProperties(buf[valueStart:])
		if err == nil {
			return entry{key: key, value: value, start: lines[i].start, end: lines[j].end,
				valueStart: at(valueStart), valueEnd: at(len(buf)), sep: hasSep || valueStart > keyLen, explicit: hasSep, line: line, open: open}, j + 1, nil
		}
	}
	return entry{}, 0, &ParseError{Which: which, Format: Properties, Line: line, Msg: err.Error()}
}

// splitKey finds where a logical line's key ends and its value starts, as
// Properties.load does.
func splitKey(buf []byte) (keyLen, valueStart int, hasSep bool) {
	valueStart = len(buf)
	escaped := false
	for keyLen = 0; keyLen < len(buf); keyLen++ {
		c := buf[keyLen]
		if !escaped && (c == '=' || c == ':') {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if !escaped && isPropSpace(c) {
			valueStart = keyLen + 1
			break
		}
		escaped = c == '\\' && !escaped
	}
	for ; valueStart < len(buf); valueStart++ {
		c := buf[valueStart]
		if isPropSpace(c) {
			continue
		}
		if !hasSep && (c == '=' || c == ':') {
			hasSep = true
			continue
		}
		break
	}
	return keyLen, valueStart, hasSep
}

// unescapeProperties turns a key's or value's text into what it means.
func unescapeProperties(b []byte) (string, error) {
	if !strings.ContainsRune(string(b), '\\') {
		return string(b), nil
	}
	var units []uint16 // \u escapes are UTF-16 code units: pairs make one rune
	var out strings.Builder
	flush := func() {
		out.WriteString(string(utf16.Decode(units)))
		units = units[:0]
	}
	s := string(b)
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			flush()
			out.WriteByte(s[i]) // a lone backslash at the end is kept
			i++
			continue
		}
		c := s[i+1]
		if c == 'u' {
			if i+6 > len(s) || !isHex(s[i+2:i+6]) {
				return "", fmt.Errorf("malformed \\uXXXX escape")
			}
			var u uint16
			fmt.Sscanf(s[i+2:i+6], "%04x", &u)
			units = append(units, u)
			i += 6
			continue
		}
		flush()
		switch c {
		case 't':
			out.WriteByte('\t')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 'f':
			out.WriteByte('\f')
		default:
			out.WriteByte(c) // a multi-byte character's first byte: the rest follows as it is
		}
		i += 2
	}
	flush()
	return out.String(), nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}
