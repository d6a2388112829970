package valuemerge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/patchwork-krm/patchwork/pkg/kv"
)

// env values are read as kustomize reads env files (package kv, the one
// reader): lines end in \n (a \r before it is dropped), a byte order mark
// starts the first, leading white space is skipped, empty lines and lines
// starting with # are skipped, and a line is split on its first =; a line
// without = is a key with an empty value. Values are taken as written:
// no quotes are removed, no `export` is understood.
func readEnv(s, which string) ([]entry, error) {
	pairs, err := kv.ParseEnv([]byte(s), which+" value")
	if err != nil {
		return nil, &ParseError{Which: which, Format: Env, Msg: strings.TrimPrefix(err.Error(), which+" value ")}
	}
	out := envEntries(s)
	// kv reads the same lines: anything else is a bug here.
	if !sameEntries(out, pairs) {
		return nil, fmt.Errorf("internal error reading env lines (please report)")
	}
	return out, nil
}

// envEntries reads the entries of an env text, and where they are.
func envEntries(s string) []entry {
	var out []entry
	above := noComments
	for start, n := 0, 1; start < len(s); n++ {
		end := lineEnd(s, start)
		contentEnd := start + len(strings.TrimSuffix(strings.TrimSuffix(s[start:end], "\n"), "\r"))
		p := envLineStart(s, start, contentEnd, n == 1)
		switch line := s[p:contentEnd]; {
		case line == "":
			above.blank()
		case line[0] == '#':
			above.comment(start)
		default:
			e := envEntry(line, p)
			e.start, e.end, e.line, e.valueEnd = start, end, n, contentEnd
			above.take(&e)
			out = append(out, e)
		}
		start = end
	}
	return out
}

// envLineStart is where the text of the line [start, contentEnd) starts:
// after a byte order mark on the first line, and after white space.
func envLineStart(s string, start, contentEnd int, first bool) int {
	p := start
	if first {
		p += len(s[p:contentEnd]) - len(strings.TrimPrefix(s[p:contentEnd], "\uFEFF"))
	}
	return p + len(s[p:contentEnd]) - len(strings.TrimLeftFunc(s[p:contentEnd], unicode.IsSpace))
}

// envEntry is the key and value of line, whose text starts at offset p:
// split on its first =, the value empty without one.
func envEntry(line string, p int) entry {
	key, value, hasEq := strings.Cut(line, "=")
	e := entry{key: key, value: value, sep: hasEq, explicit: hasEq, valueStart: p + len(key)}
	if hasEq {
		e.valueStart++
	}
	return e
}

// sameEntries reports whether the entries read are the pairs kv read.
func sameEntries(es []entry, pairs []kv.Pair) bool {
	if len(es) != len(pairs) {
		return false
	}
	for i, p := range pairs {
		if p.Key != es[i].key || p.Value != es[i].value {
			return false
		}
	}
	return true
}
