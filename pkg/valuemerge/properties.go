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

// isPropSep reports whether c separates a key from its value.
func isPropSep(c byte) bool { return c == '=' || c == ':' }

// skipPropSpace is the offset of the first byte of s[p:end] that is not
// white space, end when there is none.
func skipPropSpace(s string, p, end int) int {
	for p < end && isPropSpace(s[p]) {
		p++
	}
	return p
}

func readProperties(s, which string) ([]entry, error) {
	if err := checkUTF8(s, which, Properties); err != nil {
		return nil, err
	}
	lines := naturalLines(s)
	var out []entry
	above := noComments
	for i := 0; i < len(lines); {
		l := lines[i]
		p := skipPropSpace(s, l.start, l.contentEnd)
		switch {
		case p == l.contentEnd:
			above.blank()
		case s[p] == '#' || s[p] == '!':
			above.comment(l.start)
		default:
			e, next, err := readLogical(s, lines, i, p, which)
			if err != nil {
				return nil, err
			}
			above.take(&e)
			out = append(out, e)
			i = next
			continue
		}
		i++
	}
	return out, nil
}

// readLogical reads the entry whose first line is lines[i], its content
// starting at p; it returns the entry and the index of the line after it.
func readLogical(s string, lines []natLine, i, p int, which string) (entry, int, error) {
	ll := joinLogical(s, lines, i, p)
	keyLen, valueStart, hasSep := splitKey(ll.buf)
	key, err := unescapeProperties(ll.buf[:keyLen])
	var value string
	if err == nil {
		value, err = unescapeProperties(ll.buf[valueStart:])
	}
	if err != nil {
		return entry{}, 0, &ParseError{Which: which, Format: Properties, Line: i + 1, Msg: err.Error()}
	}
	return entry{key: key, value: value, start: lines[i].start, end: lines[ll.last].end,
		valueStart: ll.at(valueStart, p), valueEnd: ll.at(len(ll.buf), p), sep: hasSep || valueStart > keyLen, explicit: hasSep,
		line: i + 1, open: ll.open}, ll.last + 1, nil
}

// logical is a logical line: the contents of its natural lines joined,
// without the backslashes that continue them and the white space that
// starts the next, with the offset in the text of each byte.
type logical struct {
	buf  []byte
	offs []int
	last int  // the index of its last natural line
	open bool // the text ends after a backslash that would continue it
}

// joinLogical reads the logical line whose content starts at p, on
// lines[i].
func joinLogical(s string, lines []natLine, i, p int) logical {
	ll := logical{last: i}
	for {
		begin := len(ll.buf)
		ll.add(s, p, lines[ll.last].contentEnd)
		if !continues(ll.buf[begin:]) {
			return ll
		}
		ll.buf, ll.offs = ll.buf[:len(ll.buf)-1], ll.offs[:len(ll.offs)-1]
		if ll.last+1 == len(lines) {
			ll.open = true // at the end of the text the backslash is dropped
			return ll
		}
		ll.last++
		next := lines[ll.last]
		if p = skipPropSpace(s, next.start, next.contentEnd); p == next.contentEnd {
			return ll // a blank continuation line ends the entry
		}
	}
}

// add appends s[p:end], the content of a natural line, and its offsets.
func (ll *logical) add(s string, p, end int) {
	for k := p; k < end; k++ {
		ll.buf = append(ll.buf, s[k])
		ll.offs = append(ll.offs, k)
	}
}

// continues reports whether the content of a natural line ends in an odd
// number of backslashes, the last of which continues it on the next.
func continues(b []byte) bool {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// at is the offset in the text of byte k of the logical line, which may
// be its end; first is where its content starts.
func (ll *logical) at(k, first int) int {
	switch {
	case k < len(ll.offs):
		return ll.offs[k]
	case len(ll.offs) > 0:
		return ll.offs[len(ll.offs)-1] + 1
	}
	return first // a lone continuation: an empty key and value
}

// splitKey finds where a logical line's key ends and its value starts, as
// Properties.load does.
func splitKey(buf []byte) (keyLen, valueStart int, hasSep bool) {
	keyLen = keyEnd(buf)
	valueStart, hasSep = valueAfter(buf, keyLen)
	return keyLen, valueStart, hasSep
}

// keyEnd is where a logical line's key ends: at its first =, : or white
// space that no backslash escapes.
func keyEnd(buf []byte) int {
	escaped := false
	for i, c := range buf {
		if !escaped && (isPropSep(c) || isPropSpace(c)) {
			return i
		}
		escaped = c == '\\' && !escaped
	}
	return len(buf)
}

// valueAfter is where the value starts after the key ending at keyLen:
// past the white space and the one = or : between them, which it reports.
func valueAfter(buf []byte, keyLen int) (int, bool) {
	if keyLen == len(buf) {
		return len(buf), false
	}
	hasSep := isPropSep(buf[keyLen])
	for i := keyLen + 1; i < len(buf); i++ {
		switch c := buf[i]; {
		case isPropSpace(c):
		case !hasSep && isPropSep(c):
			hasSep = true
		default:
			return i, hasSep
		}
	}
	return len(buf), hasSep
}

// unescapeProperties turns a key's or value's text into what it means.
func unescapeProperties(b []byte) (string, error) {
	s := string(b)
	if !strings.ContainsRune(s, '\\') {
		return s, nil
	}
	var u unescaper
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			u.byte(s[i]) // a lone backslash at the end is kept
			i++
			continue
		}
		n, err := u.escape(s[i+1:])
		if err != nil {
			return "", err
		}
		i += 1 + n
	}
	u.flush()
	return u.out.String(), nil
}

// unescaper writes what a text with escapes means. \uXXXX escapes are
// UTF-16 code units, decoded together while they follow one another: a
// surrogate pair makes one rune.
type unescaper struct {
	units []uint16
	out   strings.Builder
}

func (u *unescaper) flush() {
	u.out.WriteString(string(utf16.Decode(u.units)))
	u.units = u.units[:0]
}

func (u *unescaper) byte(c byte) {
	u.flush()
	u.out.WriteByte(c)
}

// escape reads the escape at the start of s, after its backslash, and
// returns its length.
func (u *unescaper) escape(s string) (int, error) {
	if s[0] != 'u' {
		u.byte(unescapedByte(s[0]))
		return 1, nil
	}
	if len(s) < 5 || !isHex(s[1:5]) {
		return 0, fmt.Errorf("malformed \\uXXXX escape")
	}
	var x uint16
	fmt.Sscanf(s[1:5], "%04x", &x)
	u.units = append(u.units, x)
	return 5, nil
}

// propEscapes are the escaped characters that stand for another.
var propEscapes = map[byte]byte{'t': '\t', 'n': '\n', 'r': '\r', 'f': '\f'}

// unescapedByte is what escaped character c stands for: itself but for
// those of propEscapes (a multi-byte character's first byte: the rest
// follows as it is).
func unescapedByte(c byte) byte {
	if r, ok := propEscapes[c]; ok {
		return r
	}
	return c
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}
