package redact

import (
	"encoding/base64"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Marker stands in for a redacted run of text.
const Marker = "<redacted>"

// MinLen is the shortest form, in bytes, that is redacted (see the package
// documentation for why).
const MinLen = 4

// Piece is the shortest piece of a form, in bytes, that is redacted
// wherever it appears: a value cut in a message shows a piece of it.
const Piece = 8

// A Set holds the values to redact. The zero value is empty and ready to
// use; a nil *Set redacts nothing.
type Set struct {
	seen map[string]kind // every text registered, and as what
	// values are matched by every piece of every form
	values []string
	// raw are matched by their own pieces only: a data value as written
	// (its decoded value is a value), the forms of a value shorter than
	// Piece
	raw []string
	// docs are documents, matched whole and by lines; their values are
	// among values
	docs []string
	// short are the forms of MinLen..Piece-1 bytes, by their first MinLen
	// bytes
	short     map[string][]string
	shortSeen map[string]bool
}

// kind is what a text was registered as (bits: a text may be several).
type kind uint8

const (
	asValue kind = 1 << iota // a value or a document
	asRaw                    // matched by its own pieces
)

// Add registers secret values, in every form (see the package
// documentation).
func (s *Set) Add(values ...string) {
	for _, v := range values {
		s.add(v, true)
	}
}

// AddBase64 registers values of a Secret's data field: each text as
// written and, when it is base64, the decoded value in every form.
func (s *Set) AddBase64(encoded ...string) {
	for _, e := range encoded {
		s.addRaw(e)
		s.addRaw(strings.TrimSpace(e))
		if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(e)); err == nil {
			s.add(string(b), true)
		}
	}
}

// Len reports how many values, documents and forms are registered: 0 when
// the set redacts nothing.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.values) + len(s.raw) + len(s.docs) + len(s.shortSeen)
}

// String returns text with every occurrence of a form of a registered
// value replaced; overlapping or touching occurrences become one Marker.
func (s *Set) String(text string) string {
	if s.Len() == 0 || len(text) < MinLen {
		return text
	}
	return s.redact([]string{text})[0]
}

// Error returns err with its text redacted, or err itself when nothing in
// it is secret.
func (s *Set) Error(err error) error {
	if err == nil || s.Len() == 0 {
		return err
	}
	msg := err.Error()
	if r := s.String(msg); r != msg {
		return redactedError(r)
	}
	return err
}

type redactedError string

func (e redactedError) Error() string { return string(e) }

// Writer returns a writer that writes to w what it is given, redacted
// with the values the set holds at the time of each write: the one way to
// stderr. Each write is redacted on its own, so a message is written
// whole, in one call.
func (s *Set) Writer(w io.Writer) io.Writer { return writer{s, w} }

type writer struct {
	s *Set
	w io.Writer
}

func (w writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.w, w.s.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Result redacts every text a result carries, in place: the message, the
// resource's identity, the field path and values, the file path and the
// tags.
func (s *Set) Result(r *framework.Result) {
	s.Results(framework.Results{r})
}

// Results redacts each result in place, in one batch, and returns rs.
func (s *Set) Results(rs framework.Results) framework.Results {
	if s.Len() == 0 {
		return rs
	}
	var texts []string
	for _, r := range rs {
		eachText(r, func(t string) string { texts = append(texts, t); return t })
	}
	redacted := map[string]string{}
	for i, t := range s.redact(texts) {
		redacted[texts[i]] = t
	}
	for _, r := range rs {
		eachText(r, func(t string) string { return redacted[t] })
	}
	return rs
}
