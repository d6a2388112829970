package valuemerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// JSON is merged by rebuilding text: a value the overlay does not touch is
// copied from the base as it was written; only changed values and objects
// whose members change are written anew.

// jval is a JSON value located in its source text.
type jval struct {
	kind       byte // '{', '[', '"', 'n' (null), 'v' (number, true, false)
	start, end int  // byte offsets of the value in the source
	members    []jmember
	elems      []*jval
}

type jmember struct {
	key      string // decoded
	keyStart int
	keyEnd   int
	val      *jval
}

type jdoc struct {
	src  string
	root *jval
}

// parseJSON checks s with encoding/json (for its exact rules and messages),
// then locates every value.
func parseJSON(s, which string) (*jdoc, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &ParseError{Which: which, Format: JSON, Msg: "the value is empty"}
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		pe := &ParseError{Which: which, Format: JSON, Msg: strings.TrimPrefix(err.Error(), "json: ")}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the bytes read up to and including the bad one.
			pe.Line, pe.Column = lineCol(s, int(se.Offset)-1)
		}
		return nil, pe
	}
	p := &jparser{src: s}
	p.ws()
	root := p.value()
	if p.dup != nil {
		// encoding/json keeps the last of equal keys; a merge cannot
		// know which one was meant.
		line, col := lineCol(s, p.dup.keyStart)
		return nil, &ParseError{Which: which, Format: JSON, Line: line, Column: col, Msg: fmt.Sprintf("duplicate key %q", p.dup.key)}
	}
	return &jdoc{src: s, root: root}, nil
}

// jparser walks text that encoding/json has already accepted.
type jparser struct {
	src string
	pos int
	dup *jmember // the first key repeated within an object
}

func (p *jparser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value() *jval {
	v := &jval{start: p.pos}
	switch c := p.src[p.pos]; c {
	case '{':
		v.kind = '{'
		p.pos++
		p.ws()
		seen := map[string]bool{}
		for p.src[p.pos] != '}' {
			m := jmember{keyStart: p.pos}
			p.str()
			m.keyEnd = p.pos
			_ = json.Unmarshal([]byte(p.src[m.keyStart:m.keyEnd]), &m.key)
			p.ws()
			p.pos++ // ':'
			p.ws()
			m.val = p.value()
			if seen[m.key] && p.dup == nil {
				p.dup = &m
			}
			seen[m.key] = true
			v.members = append(v.members, m)
			p.ws()
			if p.src[p.pos] == ',' {
				p.pos++
				p.ws()
			}
		}
		p.pos++
	case '[':
		v.kind = '['
		p.pos++
		p.ws()
		for p.src[p.pos] != ']' {
			v.elems = append(v.elems, p.value())
			p.ws()
			if p.src[p.pos] == ',' {
				p.pos++
				p.ws()
			}
		}
		p.pos++
	case '"':
		v.kind = '"'
		p.str()
	case 'n':
		v.kind = 'n'
		p.pos += 4
	default:
		v.kind = 'v'
		for p.pos < len(p.src) && strings.IndexByte("+-0123456789.eEtruefals", p.src[p.pos]) >= 0 {
			p.pos++
		}
	}
	v.end = p.pos
	return v
}

func (p *jparser) str() {
	p.pos++ // opening quote
	for p.src[p.pos] != '"' {
		if p.src[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	p.pos++
}

// jstyle is how the base writes JSON, used for what the merge writes.
type jstyle struct {
	pretty bool   // the document spans several lines
	unit   string // one level of indentation
	colon  string // between a key and its value
	comma  string // between members of a one-line object
}

func detectStyle(d *jdoc) jstyle {
	st := jstyle{pretty: strings.Contains(strings.TrimSpace(d.src), "\n")}
	var walk func(v *jval)
	walk = func(v *jval) {
		if v.kind == '[' {
			for _, e := range v.elems {
				walk(e)
			}
			return
		}
		if v.kind != '{' || len(v.members) == 0 {
			return
		}
		m0 := v.members[0]
		if st.colon == "" {
			st.colon = d.src[m0.keyEnd:m0.val.start]
		}
		multi := strings.Contains(d.src[v.start:v.end], "\n")
		if multi && st.unit == "" {
			outer, inner := lineIndent(d.src, v.start), lineIndent(d.src, m0.keyStart)
			if strings.HasPrefix(inner, outer) && len(inner) > len(outer) {
				st.unit = inner[len(outer):]
			}
		}
		if !multi && st.comma == "" && len(v.members) > 1 {
			st.comma = d.src[m0.val.end:v.members[1].keyStart]
		}
		for _, m := range v.members {
			walk(m.val)
		}
	}
	walk(d.root)
	if st.unit == "" {
		st.unit = "  "
	}
	if st.colon == "" {
		st.colon = ":"
		if st.pretty {
			st.colon = ": "
		}
	}
	if st.comma == "" {
		st.comma = ","
		if st.pretty || strings.HasSuffix(st.colon, " ") {
			st.comma = ", "
		}
	}
	return st
}

// lineIndent returns the white space that starts the line holding off.
func lineIndent(s string, off int) string {
	start := strings.LastIndexByte(s[:off], '\n') + 1
	end := start
	for end < len(s) && (s[end] == ' ' || s[end] == '\t') {
		end++
	}
	return s[start:end]
}

func mergeJSON(base, overlay string) (string, error) {
	o, err := parseJSON(overlay, "overlay")
	if err != nil {
		return "", err
	}
	if o.root.kind == 'n' {
		return "", &ParseError{Which: "overlay", Format: JSON, Msg: "the value is null; a null overlay would delete everything"}
	}
	if strings.TrimSpace(base) == "" {
		// Nothing to keep: the overlay as written, less its null members
		// (merging into an empty object drops them).
		return mergeJSON(overlay, overlay)
	}
	b, err := parseJSON(base, "base")
	if err != nil {
		return "", err
	}
	m := &jmerger{base: b, over: o, st: detectStyle(b)}
	text := m.value(b.root, o.root, lineIndent(base, b.root.start))
	out := base[:b.root.start] + text + base[b.root.end:]
	if err := checkJSONResult(base, overlay, out); err != nil {
		return "", err
	}
	return out, nil
}

type jmerger struct {
	base, over *jdoc
	st         jstyle
}

// value merges patch p into base value b, which starts on a line indented
// by indent, and returns b's new text.
func (m *jmerger) value(b, p *jval, indent string) string {
	orig := m.base.src[b.start:b.end]
	if p.kind != '{' {
		if jsonEqual(orig, m.over.src[p.start:p.end]) {
			return orig // the same value: keep how the base wrote it
		}
		return m.render(p, indent, m.st.pretty && strings.Contains(m.over.src[p.start:p.end], "\n"), true)
	}
	if b.kind != '{' {
		return m.render(p, indent, m.st.pretty, true)
	}
	return m.object(b, p, indent)
}

func (m *jmerger) object(b, p *jval, indent string) string {
	src := m.base.src
	orig := src[b.start:b.end]
	multi := strings.Contains(orig, "\n")
	memberIndent := indent + m.st.unit
	if multi && len(b.members) > 0 {
		memberIndent = lineIndent(src, b.members[0].keyStart)
	}
	patch := map[string]*jmember{}
	for i := range p.members {
		patch[p.members[i].key] = &p.members[i]
	}
	changed := false
	var parts []string
	used := map[string]bool{}
	for _, bm := range b.members {
		pm, ok := patch[bm.key]
		if !ok {
			parts = append(parts, src[bm.keyStart:bm.val.end])
			continue
		}
		used[bm.key] = true
		if pm.val.kind == 'n' {
			changed = true
			continue
		}
		text := m.value(bm.val, pm.val, memberIndent)
		if text != src[bm.val.start:bm.val.end] {
			changed = true
		}
		parts = append(parts, src[bm.keyStart:bm.val.start]+text)
	}
	pretty := multi || (len(b.members) == 0 && m.st.pretty)
	colon := m.st.colon
	if len(b.members) > 0 {
		colon = src[b.members[0].keyEnd:b.members[0].val.start]
	}
	for i, pm := range p.members {
		if used[pm.key] || pm.val.kind == 'n' || patch[pm.key] != &p.members[i] {
			continue
		}
		used[pm.key] = true
		changed = true
		parts = append(parts, m.over.src[pm.keyStart:pm.keyEnd]+colon+m.render(pm.val, memberIndent, pretty && strings.Contains(m.over.src[pm.val.start:pm.val.end], "\n"), true))
	}
	if !changed {
		return orig
	}
	if len(parts) == 0 {
		return "{}"
	}
	if len(b.members) == 0 {
		if pretty {
			return "{\n" + memberIndent + strings.Join(parts, ",\n"+memberIndent) + "\n" + indent + "}"
		}
		return "{" + strings.Join(parts, m.st.comma) + "}"
	}
	first, last := b.members[0], b.members[len(b.members)-1]
	sep := m.st.comma
	if multi {
		sep = ",\n" + memberIndent
	}
	if len(b.members) > 1 {
		sep = src[first.val.end:b.members[1].keyStart]
	}
	return src[b.start:first.keyStart] + strings.Join(parts, sep) + src[last.val.end:b.end]
}

// render writes an overlay value in the base's style, indented for a line
// indented by indent. A value the overlay wrote on one line is copied as it
// was written (unless null members must go); pretty spreads objects and
// arrays over lines. strip drops null members from objects (merging into
// nothing); inside arrays values are taken as they are.
func (m *jmerger) render(v *jval, indent string, pretty, strip bool) string {
	raw := m.over.src[v.start:v.end]
	if !pretty && !strings.Contains(raw, "\n") && !(strip && hasNullMember(v)) {
		return raw
	}
	switch v.kind {
	case '{':
		var parts []string
		for _, mm := range v.members {
			if strip && mm.val.kind == 'n' {
				continue
			}
			key := m.over.src[mm.keyStart:mm.keyEnd]
			if pretty {
				parts = append(parts, indent+m.st.unit+key+m.st.colon+m.render(mm.val, indent+m.st.unit, true, strip))
			} else {
				parts = append(parts, key+m.st.colon+m.render(mm.val, indent, false, strip))
			}
		}
		if len(parts) == 0 {
			return "{}"
		}
		if pretty {
			return "{\n" + strings.Join(parts, ",\n") + "\n" + indent + "}"
		}
		return "{" + strings.Join(parts, m.st.comma) + "}"
	case '[':
		if len(v.elems) == 0 {
			return "[]"
		}
		var parts []string
		for _, e := range v.elems {
			if pretty {
				parts = append(parts, indent+m.st.unit+m.render(e, indent+m.st.unit, true, false))
			} else {
				parts = append(parts, m.render(e, indent, false, false))
			}
		}
		if pretty {
			return "[\n" + strings.Join(parts, ",\n") + "\n" + indent + "]"
		}
		return "[" + strings.Join(parts, m.st.comma) + "]"
	}
	return raw
}

func hasNullMember(v *jval) bool {
	if v.kind != '{' {
		return false
	}
	for _, mm := range v.members {
		if mm.val.kind == 'n' || hasNullMember(mm.val) {
			return true
		}
	}
	return false
}

func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func jsonEqual(a, b string) bool {
	va, err1 := decodeJSON(a)
	vb, err2 := decodeJSON(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(va, vb)
}

// checkJSONResult is a safety net: the text written must parse and mean
// exactly what RFC 7386 says the merge means. A failure is a bug here, and
// is reported rather than written.
func checkJSONResult(base, overlay, out string) error {
	b, err1 := decodeJSON(base)
	o, err2 := decodeJSON(overlay)
	got, err3 := decodeJSON(out)
	if err := errors.Join(err1, err2, err3); err != nil {
		return fmt.Errorf("internal error merging JSON (please report): %w", err)
	}
	if want := MergePatch(b, o); !reflect.DeepEqual(got, want) {
		var w bytes.Buffer
		_ = json.NewEncoder(&w).Encode(want)
		return fmt.Errorf("internal error merging JSON (please report): wrote %s, expected %s", out, w.String())
	}
	return nil
}

// MergePatch is RFC 7386 on decoded values (maps, slices, scalars).
func MergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	}
	out := make(map[string]any, len(tm)+len(pm))
	for k, v := range tm {
		out[k] = v
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = MergePatch(out[k], v)
	}
	return out
}
