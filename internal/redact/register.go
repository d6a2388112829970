package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// mark records t as registered as k, and reports whether it was not yet.
func (s *Set) mark(t string, k kind) bool {
	if s.seen == nil {
		s.seen = map[string]kind{}
	}
	if s.seen[t]&k != 0 {
		return false
	}
	s.seen[t] |= k
	return true
}

// add registers v; top says it is a value as the Secret holds it (not one
// found inside another), which may be a document or base64 of text.
func (s *Set) add(v string, top bool) {
	if len(v) < MinLen || !s.mark(v, asValue) {
		return
	}
	if top && s.document(v) {
		return
	}
	if len(v) >= Piece {
		s.values = append(s.values, v)
	} else {
		eachForm(v, func(f string) bool { s.addRaw(f); return true })
		for _, f := range unpadded(v) {
			s.addRaw(f)
		}
	}
	if t := strings.TrimSpace(v); t != v {
		s.add(t, false)
	}
	s.lines(v)
	if top {
		s.decoded(v)
	}
}

// addRaw registers a text matched by its own pieces, or whole when it is
// shorter than Piece.
func (s *Set) addRaw(t string) {
	if len(t) < Piece {
		s.addWhole(t)
	} else if s.mark(t, asRaw) {
		s.raw = append(s.raw, t)
	}
}

// lines registers the lines of a value of several lines, as written and
// trimmed, that are shorter than Piece: the longer ones are pieces of
// the value already (or, for a document, are matched whole when a batch is
// redacted).
func (s *Set) lines(v string) {
	if !strings.ContainsAny(v, "\n\r") {
		return
	}
	for _, line := range strings.FieldsFunc(v, isBreak) {
		for _, l := range []string{line, strings.TrimSpace(line)} {
			if len(l) < Piece {
				s.addWhole(l)
			}
		}
	}
}

func isBreak(r rune) bool { return r == '\n' || r == '\r' }

// decoded registers the text a value decodes to when it is base64 of
// UTF-8 text (a stringData value may hold one).
func (s *Set) decoded(v string) {
	t := strings.TrimSpace(v)
	if len(t) < Piece || len(t)%4 != 0 {
		return
	}
	b, err := base64.StdEncoding.DecodeString(t)
	if err != nil || !utf8.Valid(b) {
		return
	}
	s.add(string(b), false)
}

// addWhole registers a form shorter than Piece, matched whole.
func (s *Set) addWhole(f string) {
	if len(f) < MinLen || s.shortSeen[f] {
		return
	}
	if s.short == nil {
		s.short = map[string][]string{}
		s.shortSeen = map[string]bool{}
	}
	s.shortSeen[f] = true
	p := f[:MinLen]
	s.short[p] = append(s.short[p], f)
}
