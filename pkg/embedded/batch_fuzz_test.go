package embedded

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/locate"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/plan"
	"github.com/patchwork-krm/patchwork/pkg/embedded/internal/span"
	"github.com/patchwork-krm/patchwork/pkg/fieldpath"
	yaml "go.yaml.in/yaml/v3"
)

// FuzzEdit builds a random document (as FuzzSetGenerated does), picks up
// to five changes of it — values set, keys created, keys and list elements
// deleted, JSON text written — and applies them in one batch. The batch must give exactly the
// text that applying the changes one by one gives; it may refuse changes
// that overlap, and nothing else that one by one can do.
func FuzzEdit(f *testing.F) {
	for i := int64(0); i < 12; i++ {
		f.Add(i, "new value", uint16(i*2654435761))
	}
	f.Add(int64(99), "line 1\nline 2\n", uint16(0x1234))
	f.Add(int64(7), "8080", uint16(0xffff))
	f.Fuzz(func(t *testing.T, seed int64, value string, ops uint16) {
		if !utf8.ValidString(value) {
			return
		}
		r := rand.New(rand.NewSource(seed))
		tree, text := genDoc(t, r)
		isJSON := looksLikeJSON(text)
		var prefix fieldpath.Path
		if r.Intn(3) == 0 {
			// All the changes go into a document held in a string.
			outer := mapOf("before", str("x"))
			outer.Content = append(outer.Content, str("holder"), str(text), str("after"), str("y"))
			text = renderDoc(t, r, outer)
			prefix = fieldpath.Path{{Kind: fieldpath.Field, Key: "holder"}}
			isJSON = isJSON && looksLikeJSON(text)
		}
		var changes []Change
		for i := 0; i < 1+int(ops%5); i++ {
			path, target := pickPath(r, tree)
			if path == nil {
				continue
			}
			path = locate.JoinPath(prefix, path)
			v := fmt.Sprintf("%s %d", value, i)
			switch op := (ops >> (3 + 2*i)) & 3; {
			case op == 1:
				changes = append(changes, Change{Path: path, Delete: true})
			case op == 2 && target.Kind == yaml.MappingNode:
				key := fmt.Sprintf("zz-new-%d", r.Intn(3))
				changes = append(changes, Change{Path: appendKey(path, key), Set: setTo(str(v)), Create: true})
			case op == 3 && isJSON && target.Kind == yaml.ScalarNode:
				changes = append(changes, Change{Path: path, Text: fmt.Sprintf("[%q, 1,2]", v)})
			case target.Kind == yaml.ScalarNode:
				changes = append(changes, Change{Path: path, Set: setTo(str(v))})
			}
		}
		checkBatch(t, text, changes)
	})
}

// FuzzEditText applies two changes to any text in one batch, and compares
// the result with applying them one by one.
func FuzzEditText(f *testing.F) {
	f.Add(`{"a": 1, "b": {"c": [1, 2]}}`, "a", "b.d", "x", uint8(0))
	f.Add(`{"a": 1, "b": 2}`, "a", "b", "x", uint8(0x11))
	f.Add("{\n  \"a\": 1\n}", "a", "n", "x", uint8(0x21))
	f.Add("a: 1\nb:\n  c: 2\n", "b.c", "b.d", "x", uint8(0x25))
	f.Add("a: 1\nb:\n  c: 2\n", "b.c", "e", "x", uint8(0x15))
	f.Add("{a: 1, b: [x]}", "a", "b.1", "y", uint8(0x20))
	f.Add(`{"s": "{\"k\": 1, \"l\": 2}"}`, "s.k", "s.l", "v", uint8(0x16))
	f.Fuzz(func(t *testing.T, text, p1, p2, value string, ops uint8) {
		var changes []Change
		for i, p := range []string{p1, p2} {
			path, err := fieldpath.Parse(p)
			if err != nil || len(path) == 0 {
				return
			}
			c := Change{Path: path, Create: ops&(1<<(2+i)) != 0}
			switch (ops >> (4 + 2*i)) & 3 {
			case 1:
				c.Delete = true
			case 2:
				c.Text = value
			default:
				c.Set = setTo(str(value))
			}
			changes = append(changes, c)
		}
		checkBatch(t, text, changes)
	})
}

// checkBatch applies changes in one batch and one by one (in the order
// that keeps paths where they were, plan.OneByOne), and compares:
// the batch fails only where one by one fails, where the changes overlap,
// or where a change needs what another creates; when it succeeds, so does
// one by one, with the same document.
func checkBatch(t *testing.T, text string, changes []Change) {
	got, err := Edit(text, Options{}, changes...)
	want, wantErr := text, error(nil)
	for _, c := range oneByOne(changes) {
		if want, wantErr = Edit(want, Options{}, c); wantErr != nil {
			break
		}
	}
	if err != nil {
		if _, ok := err.(*Error); !ok {
			t.Fatalf("Edit returned %T (%v), want *Error", err, err)
		}
		if wantErr == nil && !strings.Contains(err.Error(), "overlap") {
			// Paths are resolved in the text as given: a change may go
			// where another creates something, one by one, but not here.
			for _, c := range changes {
				if _, err := Edit(text, Options{}, c); err != nil {
					return
				}
			}
			t.Fatalf("the batch failed where one by one succeeded: %v\nchanges: %s\ntext:\n%s", err, describeChanges(changes), text)
		}
		return
	}
	if wantErr != nil && wildcardMeetsCreate(changes) {
		// As below: one by one, the wildcard also reaches what the other
		// change created, which may be a value it cannot go into.
		return
	}
	if wantErr != nil {
		t.Fatalf("the batch succeeded where one by one failed (%v)\nchanges: %s\ntext:\n%s\nbatch:\n%s", wantErr, describeChanges(changes), text, got)
	}
	if got != want && wildcardMeetsCreate(changes) {
		// A wildcard is resolved in the text as given, so in a batch it
		// does not reach what another change creates; one by one it does.
		// (Batches come from valuemerge, whose paths have no wildcards.)
		return
	}
	if got != want && canonical(t, got) != canonical(t, want) {
		if refills(changes) && sameDataAndComments(t, got, want) {
			// A map emptied and given new entries: one by one, the new
			// entries go into an empty map, after its "{"; in a batch,
			// where the old ones were. Comments that stayed between the
			// old entries (they are never deleted with them) are then
			// attached before or after the new ones; both keep them.
			return
		}
		t.Fatalf("the batch differs from one by one\nchanges: %s\ntext:\n%q\nbatch:\n%q\none by one:\n%q", describeChanges(changes), text, got, want)
	}
}

// oneByOne is plan.OneByOne for Changes.
func oneByOne(changes []Change) []Change {
	pc := make([]plan.Change, len(changes))
	for i, c := range changes {
		pc[i] = plan.Change{Path: c.Path, Set: c.Set, Text: c.Text, Delete: c.Delete, Create: c.Create}
	}
	out := make([]Change, len(pc))
	for i, c := range plan.OneByOne(pc) {
		out[i] = Change{Path: c.Path, Set: c.Set, Text: c.Text, Delete: c.Delete, Create: c.Create}
	}
	return out
}

// canonical is a document as yaml.v3 writes it back, documents in strings
// included: values, types, key order and comments, but not spacing or
// quoting. A batch copies the layout of the text as given, where one
// change after another copies that of the text the changes before it left;
// where that differs (a map that lost all but one entry no longer shows its
// separator; a literal block turned double-quoted by an intermediate value
// it could not hold), only the presentation differs.
func canonical(t *testing.T, text string) string { return canonicalText(t, text, nil) }

// canonicalText is canonical; with comments non-nil, the comments are not
// written but appended to *comments, in document order.
func canonicalText(t *testing.T, text string, comments *[]string) string {
	d, err := parse(text, nil)
	if err != nil {
		t.Fatalf("the result does not parse: %v\n%q", err, text)
	}
	out, err := yaml.Marshal(canonicalNode(t, d.ToYAML(d.Root), comments))
	if err != nil {
		t.Fatalf("cannot write the result back: %v", err)
	}
	return string(out)
}

func canonicalNode(t *testing.T, n *yaml.Node, comments *[]string) *yaml.Node {
	c := *n
	c.Line, c.Column, c.Style = 0, 0, 0
	if comments != nil {
		for _, s := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			if s != "" {
				*comments = append(*comments, strings.Split(s, "\n")...)
			}
		}
		c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	}
	if n.Kind == yaml.ScalarNode && n.Tag == span.StrTag {
		if _, err := parse(n.Value, nil); err == nil {
			c.Value = canonicalText(t, n.Value, comments)
		}
		return &c
	}
	c.Content = nil
	for _, k := range n.Content {
		c.Content = append(c.Content, canonicalNode(t, k, comments))
	}
	return &c
}

// refills reports whether one change deletes a key and another creates one
// in the same map.
func refills(changes []Change) bool {
	for _, a := range changes {
		for _, b := range changes {
			// b creates an entry (or a path starting with one) in the map
			// a deletes from
			if a.Delete && b.Create && !b.Delete && len(b.Path) >= len(a.Path) &&
				a.Path[:len(a.Path)-1].String() == b.Path[:len(a.Path)-1].String() {
				return true
			}
		}
	}
	return false
}

// sameDataAndComments reports whether two documents hold the same data and
// the same comments, wherever the comments are attached. yaml.v3 drops some
// comments inside flow maps ({#c\n}), so comments are counted in the text:
// with the same data, and values written alike, a "#" more or less is a
// comment more or less.
func sameDataAndComments(t *testing.T, a, b string) bool {
	var ignored []string
	return canonicalText(t, a, &ignored) == canonicalText(t, b, &ignored) &&
		strings.Count(a, "#") == strings.Count(b, "#")
}

// wildcardMeetsCreate reports whether a change with a wildcard path shares
// the batch with a change that creates.
func wildcardMeetsCreate(changes []Change) bool {
	wild, create := false, false
	for _, c := range changes {
		wild = wild || c.Path.HasWildcard()
		create = create || c.Create
	}
	return wild && create
}

func describeChanges(changes []Change) string {
	var parts []string
	for _, c := range changes {
		what := "set"
		switch {
		case c.Delete:
			what = "delete"
		case c.Set == nil:
			what = "text " + c.Text
		}
		if c.Create {
			what += " (create)"
		}
		parts = append(parts, fmt.Sprintf("%s %s", what, c.Path))
	}
	return strings.Join(parts, "; ")
}

func appendKey(path fieldpath.Path, key string) fieldpath.Path {
	return locate.JoinPath(path, fieldpath.Path{{Kind: fieldpath.Field, Key: key}})
}
