package redact

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Marker stands in for a redacted run of text.
const Marker = "<redacted>"

// MinLen is the shortest form, in bytes, that is redacted (see the package
// documentation for why).
const MinLen = 4

// maxLeaves bounds the values taken from inside one structured value, so
// that a hostile document cannot make registration slow.
const maxLeaves = 10000

// A Set holds the values to redact. The zero value is empty and ready to
// use; a nil *Set redacts nothing.
type Set struct {
	// byPrefix indexes the forms by their first MinLen bytes, so that a
	// text is scanned once whatever the number of values.
	byPrefix map[string][]string
	forms    map[string]bool
}

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
		s.addForm(e)
		s.addForm(strings.TrimSpace(e))
		if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(e)); err == nil {
			s.add(string(b), true)
		}
	}
}

// Len reports how many forms are registered.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.forms)
}

func (s *Set) add(v string, structured bool) {
	if len(v) < MinLen {
		return
	}
	s.addForm(v)
	s.addForm(strings.TrimSpace(v))
	if strings.ContainsAny(v, "\n\r") {
		s.addLines(v)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		s.addForm(enc.EncodeToString([]byte(v)))
	}
	if structured {
		s.addLeaves(v)
	}
}

// addLines registers each line of a value of several lines, as written
// and trimmed.
func (s *Set) addLines(v string) {
	for _, line := range strings.FieldsFunc(v, func(r rune) bool { return r == '\n' || r == '\r' }) {
		s.addForm(line)
		s.addForm(strings.TrimSpace(line))
	}
}

// addLeaves registers the scalars inside a YAML or JSON document: a
// function reaches into values held in strings, and may quote a piece.
func (s *Set) addLeaves(v string) {
	t := strings.TrimSpace(v)
	if !strings.ContainsAny(t, ":\n[{") {
		return // a plain word or token, not a document
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(v), &doc); err != nil {
		return
	}
	w := leafWalk{s: s, whole: v}
	w.walk(&doc)
}

// leafWalk is addLeaves' walk of the document whole, which registers up
// to maxLeaves of its scalars.
type leafWalk struct {
	s     *Set
	whole string
	n     int // the nodes walked
}

func (w *leafWalk) walk(x *yaml.Node) {
	if w.n >= maxLeaves {
		return
	}
	w.n++
	switch x.Kind {
	case yaml.ScalarNode:
		// true, false and null are no secrets, and are everywhere
		if t := x.ShortTag(); t != "!!bool" && t != "!!null" && x.Value != w.whole {
			w.s.add(x.Value, false)
		}
	case yaml.MappingNode:
		for i := 1; i < len(x.Content); i += 2 {
			w.walk(x.Content[i]) // values only: keys are not secret
		}
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range x.Content {
			w.walk(c) // aliases are not followed: their anchors are walked
		}
	}
}

func (s *Set) addForm(f string) {
	if len(f) < MinLen {
		return
	}
	if s.forms == nil {
		s.forms = map[string]bool{}
		s.byPrefix = map[string][]string{}
	}
	if s.forms[f] {
		return
	}
	s.forms[f] = true
	p := f[:MinLen]
	s.byPrefix[p] = append(s.byPrefix[p], f)
}

// String returns text with every occurrence of a registered form replaced;
// overlapping or touching occurrences become one Marker.
func (s *Set) String(text string) string {
	if s.Len() == 0 || len(text) < MinLen {
		return text
	}
	r := redaction{text: text, end: -1}
	for i := 0; i+MinLen <= len(text); i++ {
		if reach := s.reach(text, i); reach >= 0 {
			r.cover(i, reach)
		}
	}
	return r.result()
}

// reach is where the longest form found at text[i:] ends, -1 when none is
// there.
func (s *Set) reach(text string, i int) int {
	reach := -1
	for _, f := range s.byPrefix[text[i:i+MinLen]] {
		if i+len(f) > reach && strings.HasPrefix(text[i:], f) {
			reach = i + len(f)
		}
	}
	return reach
}

// redaction is String's work on text: text[:done] is written to b, and
// the run of occurrences being gathered is text[start:end], if end >= 0.
type redaction struct {
	text             string
	b                strings.Builder
	done, start, end int
}

// cover adds the occurrence text[i:reach] to the run when it overlaps or
// touches it, or else writes the run and starts another.
func (r *redaction) cover(i, reach int) {
	if r.end >= 0 && i <= r.end {
		r.end = max(r.end, reach)
		return
	}
	r.flush()
	r.start, r.end = i, reach
}

// flush writes the text before the run, and Marker for the run.
func (r *redaction) flush() {
	if r.end < 0 {
		return
	}
	r.b.WriteString(r.text[r.done:r.start])
	r.b.WriteString(Marker)
	r.done = r.end
}

// result is the text redacted: the text itself when nothing was found.
func (r *redaction) result() string {
	if r.end < 0 {
		return r.text
	}
	r.flush()
	r.b.WriteString(r.text[r.done:])
	return r.b.String()
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

// Result redacts every text a result carries, in place: the message, the
// resource's identity, the field path and values, the file path and the
// tags.
func (s *Set) Result(r *framework.Result) {
	if r == nil || s.Len() == 0 {
		return
	}
	r.Message = s.String(r.Message)
	if ref := r.ResourceRef; ref != nil {
		for _, p := range []*string{&ref.APIVersion, &ref.Kind, &ref.Name, &ref.Namespace} {
			*p = s.String(*p)
		}
	}
	if f := r.Field; f != nil {
		f.Path = s.String(f.Path)
		f.CurrentValue = s.value(f.CurrentValue)
		f.ProposedValue = s.value(f.ProposedValue)
	}
	if f := r.File; f != nil {
		f.Path = s.String(f.Path)
	}
	if len(r.Tags) > 0 {
		r.Tags = s.tags(r.Tags)
	}
}

// tags is a result's tags, keys and values redacted.
func (s *Set) tags(in map[string]string) map[string]string {
	tags := make(map[string]string, len(in))
	for k, v := range in {
		tags[s.String(k)] = s.String(v)
	}
	return tags
}

// Results redacts each result in place and returns rs.
func (s *Set) Results(rs framework.Results) framework.Results {
	for _, r := range rs {
		s.Result(r)
	}
	return rs
}

// value redacts a result's current or proposed value: strings, lists and
// maps of them are redacted piece by piece; any other value whose printed
// form holds a secret is replaced by Marker whole.
func (s *Set) value(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return s.String(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = s.value(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[s.String(k)] = s.value(x)
		}
		return out
	}
	if text := fmt.Sprint(v); s.String(text) != text {
		return Marker
	}
	return v
}

// Forms returns the registered forms, sorted; for tests.
func (s *Set) Forms() []string {
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.forms))
	for f := range s.forms {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
