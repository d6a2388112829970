package redact

import (
	"encoding/base64"
	"slices"
	"strings"
)

// redact returns texts, each redacted: one batch, in which each form of
// each value is made and scanned once.
func (s *Set) redact(texts []string) []string {
	m := newBatch(texts)
	m.short(s.short)
	if m.left > 0 {
		for _, d := range s.docs {
			m.document(d)
		}
		m.pieces(s)
	}
	return m.results()
}

// A batch finds the forms of a Set's values in texts. Every Piece bytes of
// the texts, a window, is indexed by its bytes as a number: a form's
// piece is found by reading each of its windows in the index.
type batch struct {
	texts  []string
	at     map[uint64][]hit // where each window of the texts is
	filter []uint64         // a bit for each window's hash: most windows of a form are in no text
	left   int              // windows not yet found in a form
	spans  [][]span         // what is redacted, by text
}

type hit struct{ text, pos int }

type span struct{ from, to int }

const filterBits = 1 << 16

func newBatch(texts []string) *batch {
	m := &batch{texts: texts, at: map[uint64][]hit{}, filter: make([]uint64, filterBits/64), spans: make([][]span, len(texts))}
	for t, text := range texts {
		for i := 0; i+Piece <= len(text); i++ {
			w := window(text, i)
			m.filter[bit(w)/64] |= 1 << (bit(w) % 64)
			m.at[w] = append(m.at[w], hit{t, i})
		}
	}
	m.left = len(m.at)
	return m
}

// window is the Piece bytes of s at i, as a number.
func window(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

func bit(w uint64) uint64 { return (w * 0x9E3779B97F4A7C15) >> 48 }

func (m *batch) cover(t, from, to int) { m.spans[t] = append(m.spans[t], span{from, to}) }

// short finds the forms shorter than Piece (indexed by their first MinLen
// bytes) at every place of every text.
func (m *batch) short(forms map[string][]string) {
	if len(forms) == 0 {
		return
	}
	for t, text := range m.texts {
		for i := 0; i+MinLen <= len(text); i++ {
			for _, f := range forms[text[i:i+MinLen]] {
				if strings.HasPrefix(text[i:], f) {
					m.cover(t, i, i+len(f))
				}
			}
		}
	}
}

// exact finds f (Piece bytes or more) whole: where its first window is.
func (m *batch) exact(f string) {
	for _, h := range m.at[window(f, 0)] {
		if strings.HasPrefix(m.texts[h.text][h.pos:], f) {
			m.cover(h.text, h.pos, h.pos+len(f))
		}
	}
}

// document finds a document whole, trimmed, and by its lines as written
// and trimmed.
func (m *batch) document(d string) {
	for _, f := range []string{d, strings.TrimSpace(d)} {
		if len(f) >= Piece {
			m.exact(f)
		}
	}
	for _, line := range strings.FieldsFunc(d, isBreak) {
		for _, l := range []string{line, strings.TrimSpace(line)} {
			if len(l) >= Piece {
				m.exact(l)
			}
		}
	}
}

// pieces finds the pieces of the forms of every value, of the raw texts,
// and of the documents' base64 forms, until every window is found.
func (m *batch) pieces(s *Set) {
	for _, r := range s.raw {
		if !m.piecesOf(r) {
			return
		}
	}
	for _, v := range s.values {
		eachForm(v, m.piecesOf)
		if m.left == 0 {
			return
		}
	}
	for _, d := range s.docs {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			if !m.piecesOf(enc.EncodeToString([]byte(d))) {
				return
			}
		}
	}
}

// piecesOf covers every window of the texts that is a window of f; false
// when no window is left to find.
func (m *batch) piecesOf(f string) bool {
	for i := 0; i+Piece <= len(f); i++ {
		w := window(f, i)
		if m.filter[bit(w)/64]&(1<<(bit(w)%64)) == 0 {
			continue
		}
		hits, ok := m.at[w]
		if !ok || hits == nil {
			continue
		}
		for _, h := range hits {
			m.cover(h.text, h.pos, h.pos+Piece)
		}
		m.at[w] = nil // found: its places are covered
		if m.left--; m.left == 0 {
			return false
		}
	}
	return m.left > 0
}

// results are the texts with each run of covered bytes (spans that
// overlap or touch) replaced by one Marker.
func (m *batch) results() []string {
	out := make([]string, len(m.texts))
	for t, text := range m.texts {
		out[t] = replaceSpans(text, m.spans[t])
	}
	return out
}

func replaceSpans(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	done, start, end := 0, spans[0].from, spans[0].to
	for _, sp := range spans[1:] {
		if sp.from <= end {
			end = max(end, sp.to)
			continue
		}
		b.WriteString(text[done:start])
		b.WriteString(Marker)
		done, start, end = end, sp.from, sp.to
	}
	b.WriteString(text[done:start])
	b.WriteString(Marker)
	b.WriteString(text[end:])
	return b.String()
}
