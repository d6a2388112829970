package embedded

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/encode"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/scalartype"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// FuzzSet edits random JSON and YAML documents at random paths and checks
// that the editor never panics, that a successful edit leaves the bytes
// before and after a replaced scalar untouched, that the result parses and
// holds the new value, and, for strict JSON, that the result decodes to
// exactly the original with that one value changed.
func FuzzSet(f *testing.F) {
	seeds := []struct {
		text, path, value string
		create            bool
	}{
		{"{\"config\": {\n  \"id\": \"42\",\n  \"hostname\": \"x\"\n}}", "config.hostname", "www.example.com", false},
		{`{"a":[{"name":"x","v":1},{"name":"y","v":2}]}`, "a.[name=y].v", "3", false},
		{`{"a":[1,2,3]}`, "a.*", "z", false},
		{`{"a":{}}`, "a.b.c", "v", true},
		{"{\n\t\"a\": {\n\t\t\"b\": true\n\t}\n}\n", "a.c", "false", true},
		{"a:\n  b: 1 # c\n  d: 'q'\n---\nx: y\n", "a.d", "it's", false},
		{"a: |\n  {\"k\": \"v\"}\nb: [1, {c: d}]\n", "a.k", "w", false},
		{"a: |-\n  x: 1\n  y: 2\n", "a.y", "3", false},
		{"list:\n- name: a\n  v: 1\n- name: b\n", "list.[name=b].v", "2", true},
		{"a: >\n  folded\n  text\nb: \"x\\ty\"\n", "b", "multi\nline", false},
		{"a: {b: [1, 2], c: }\n", "a.c", "x", false},
		{"- a\n- b\n", "2", "c", true},
		{"a:\nb: ~\n", "b.c", "d", true},
		{"\ufeffa: b\r\nc: d\r\n", "c", "e", false},
		{"k: &x 1\nm: *x\n", "k", "2", false},
		{`{"s": "{\"inner\": [true]}"}`, "s.inner.0", "false", false},
		{"a: 'one\n  two'\nb: plain\n  multi\n", "b", "x: y", false},
	}
	for _, s := range seeds {
		f.Add(s.text, s.path, s.value, s.create)
	}
	f.Fuzz(func(t *testing.T, text, pathText, value string, create bool) {
		path, err := fieldpath.Parse(pathText)
		if err != nil {
			return
		}
		checkDelete(t, text, path)
		got, err := Set(text, path, Options{Create: create}, setTo(str(value)))
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Set returned %T (%v), want *Error", err, err)
			}
			return
		}
		checkSurgical(t, text, got, path)
		if matcherAffected(path) {
			return // the value written may be what the matcher looked for
		}
		vals, err := Get(got, path, Options{})
		if err != nil {
			t.Fatalf("the result of Set does not resolve the path: %v\nbefore: %q\nafter:  %q", err, text, got)
		}
		if len(vals) == 0 {
			t.Fatalf("the path leads nowhere after Set\nafter: %q", got)
		}
		for _, v := range vals {
			if !readsAs(v, value) {
				t.Fatalf("after Set the path holds %s %q, want %q\nbefore: %q\nafter:  %q", v.ShortTag(), v.Value, value, text, got)
			}
		}
		if !create && json.Valid([]byte(text)) && looksLikeJSON(text) {
			checkJSONModel(t, text, got, path, value)
		}
	})
}

// matcherAffected reports whether writing at path can change what a list
// matcher on the path selects: the path ends at the matched element, or at
// the field it matches on.
func matcherAffected(path fieldpath.Path) bool {
	last := path[len(path)-1]
	if last.Kind == fieldpath.Match {
		return true
	}
	for i, s := range path[:len(path)-1] {
		if s.Kind == fieldpath.Match && (s.Key == "" || path[i+1].Key == s.Key) {
			return true
		}
	}
	return false
}

// checkSurgical checks, for a path that leads to existing scalars without
// entering nested documents, that every byte outside the replaced scalars
// is unchanged.
func checkSurgical(t *testing.T, before, after string, path fieldpath.Path) {
	d, err := parse(before, nil)
	if err != nil {
		t.Fatalf("Set succeeded on text that does not parse: %v", err)
	}
	places, err := d.Resolve(path, false, true)
	if err != nil {
		return // created something: no span to compare with
	}
	var spans [][2]int
	for _, p := range places {
		if p.Kind != locate.AtNode || p.N.Kind != span.Scalar || p.N.End == p.N.Start {
			return
		}
		spans = append(spans, [2]int{p.N.Start, p.N.End})
	}
	// Walk the original text span by span: the text between spans must
	// appear unchanged, in order, in the result.
	pos, apos := 0, 0
	for i, s := range spans {
		between := before[pos:s[0]]
		if !strings.HasPrefix(after[apos:], between) {
			t.Fatalf("bytes outside the edited values changed\nbefore: %q\nafter:  %q", before, after)
		}
		apos += len(between)
		// Find where the next unchanged stretch resumes.
		next := len(before)
		if i+1 < len(spans) {
			next = spans[i+1][0]
		}
		tail := before[s[1]:next]
		idx := strings.Index(after[apos:], tail)
		if i+1 == len(spans) {
			if !strings.HasSuffix(after, tail) {
				t.Fatalf("bytes after the edited value changed\nbefore: %q\nafter:  %q", before, after)
			}
			return
		}
		if idx < 0 {
			t.Fatalf("bytes between edited values changed\nbefore: %q\nafter:  %q", before, after)
		}
		apos += idx
		pos = s[1]
	}
}

// readsAs reports whether a value read back is the string written, or the
// same text kept as a number or boolean.
func readsAs(v *yaml.Node, want string) bool {
	if v.Kind != yaml.ScalarNode {
		return false
	}
	if v.Value == want {
		return true
	}
	// A boolean kept as a boolean in JSON is written in lower case.
	if b, ok := scalartype.Bool(want); ok && v.ShortTag() == span.BoolTag {
		return encode.JSONScalar(span.BoolTag, want) == v.Value || (b && v.Value == "true") || (!b && v.Value == "false")
	}
	return false
}

// checkJSONModel applies the edit to the decoded original with a simple
// model of path semantics and compares with the decoded result.
func checkJSONModel(t *testing.T, before, after string, path fieldpath.Path, value string) {
	var old, got any
	if decodeJSON(before, &old) != nil {
		return
	}
	if err := decodeJSON(after, &got); err != nil {
		t.Fatalf("the result is not valid JSON any more: %v\nbefore: %q\nafter:  %q", err, before, after)
	}
	want, ok := modelSet(old, path, value)
	if !ok {
		return // the path enters a nested document: not modelled
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("the result differs from the original beyond the edit\nbefore: %q\nafter:  %q", before, after)
	}
}

func decodeJSON(s string, v *any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	return dec.Decode(v)
}

// modelSet is the reference semantics: set value at every place the path
// leads to, keeping a number or boolean's type when value reads as one.
func modelSet(v any, path fieldpath.Path, value string) (any, bool) {
	if len(path) == 0 {
		switch old := v.(type) {
		case json.Number:
			if scalartype.IsNumber(value) {
				return json.Number(value), true
			}
		case bool:
			if b, ok := scalartype.Bool(value); ok {
				return b, true
			}
			_ = old
		}
		return value, true
	}
	seg := path[0]
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = c
		}
		if seg.Kind == fieldpath.Wildcard {
			for k, c := range x {
				nv, ok := modelSet(c, path[1:], value)
				if !ok {
					return nil, false
				}
				out[k] = nv
			}
			return out, true
		}
		c, found := x[seg.Key]
		if !found || (seg.Kind != fieldpath.Field && seg.Kind != fieldpath.Index) {
			return nil, false
		}
		nv, ok := modelSet(c, path[1:], value)
		out[seg.Key] = nv
		return out, ok
	case []any:
		out := append([]any(nil), x...)
		for i, c := range x {
			hit := false
			switch seg.Kind {
			case fieldpath.Index:
				hit = i == seg.Index
			case fieldpath.Wildcard:
				hit = true
			case fieldpath.Match:
				hit = modelMatches(c, seg)
			}
			if !hit {
				continue
			}
			nv, ok := modelSet(c, path[1:], value)
			if !ok {
				return nil, false
			}
			out[i] = nv
		}
		return out, true
	}
	return nil, false
}

func modelMatches(el any, seg fieldpath.Segment) bool {
	text := func(v any) (string, bool) {
		switch s := v.(type) {
		case string:
			return s, true
		case json.Number:
			return string(s), true
		case bool:
			if s {
				return "true", true
			}
			return "false", true
		case nil:
			return "null", true
		}
		return "", false
	}
	if seg.Key == "" {
		s, ok := text(el)
		return ok && seg.MatchesValue(s)
	}
	m, ok := el.(map[string]any)
	if !ok {
		return false
	}
	s, ok := text(m[seg.Key])
	_, present := m[seg.Key]
	return present && ok && seg.MatchesValue(s)
}

// checkDelete deletes at path: a failure is an *Error; a success parses,
// no longer holds the key, and for strict JSON decodes to the original
// less that key.
func checkDelete(t *testing.T, text string, path fieldpath.Path) {
	got, err := Delete(text, path, Options{})
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("Delete returned %T (%v), want *Error", err, err)
		}
		return
	}
	if _, err := parse(got, nil); err != nil {
		t.Fatalf("the result of Delete does not parse: %v\nbefore: %q\nafter:  %q", err, text, got)
	}
	if !path.HasWildcard() && !matcherAffected(path) && !deletesElement(text, path) {
		if _, err := Get(got, path, Options{}); err == nil {
			t.Fatalf("the key is still there after Delete\nbefore: %q\nafter:  %q", text, got)
		}
	}
	var old, now any
	if !looksLikeJSON(text) || decodeJSON(text, &old) != nil {
		return
	}
	if err := decodeJSON(got, &now); err != nil {
		t.Fatalf("the result of Delete is not valid JSON: %v\nbefore: %q\nafter:  %q", err, text, got)
	}
	if want, ok := modelDelete(old, path); ok && !reflect.DeepEqual(want, now) {
		t.Fatalf("Delete changed more than the key\nbefore: %q\nafter:  %q", text, got)
	}
}

// deletesElement reports whether path names an element of a list of
// text: the elements after it move up, so the path still leads somewhere.
func deletesElement(text string, path fieldpath.Path) bool {
	if path[len(path)-1].Kind != fieldpath.Index {
		return false
	}
	list, err := Get(text, path[:len(path)-1], Options{})
	return err == nil && len(list) == 1 && list[0].Kind == yaml.SequenceNode
}

// modelDelete is the reference semantics of Delete on decoded JSON, for
// paths of plain keys and indexes (a list element deleted, those after it
// move up).
func modelDelete(v any, path fieldpath.Path) (any, bool) {
	seg := path[0]
	if seg.Kind != fieldpath.Field && seg.Kind != fieldpath.Index {
		return nil, false
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			out[k] = c
		}
		c, found := x[seg.Key]
		if !found {
			return nil, false
		}
		if len(path) == 1 {
			delete(out, seg.Key)
			return out, true
		}
		nv, ok := modelDelete(c, path[1:])
		out[seg.Key] = nv
		return out, ok
	case []any:
		if seg.Kind != fieldpath.Index || seg.Index >= len(x) {
			return nil, false
		}
		if len(path) == 1 {
			return append(append([]any{}, x[:seg.Index]...), x[seg.Index+1:]...), true
		}
		out := append([]any(nil), x...)
		nv, ok := modelDelete(x[seg.Index], path[1:])
		out[seg.Index] = nv
		return out, ok
	}
	return nil, false
}
