package jsonpatch

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
	"github.com/patchwork-krm/patchwork/pkg/schema"
)

// pathHint explains, in place of the library's "doc is missing key:
// /spec/replica: missing value", why an operation's path (or from) does not
// resolve in doc: which step is missing, what is there instead and, for a
// typo, the nearest key ("did you mean /spec/replicas?"). It returns "" when
// every step the operation needs is there (the failure is something else).
//
// With v.secret set (the document is a Secret), the keys of its data and
// stringData are never listed or suggested: they say what it holds; in a
// document held in a Secret's value (v.embedded too), no key is.
func pathHint(doc []byte, path string, needLast bool, v view) string {
	var root any
	if err := json.Unmarshal(doc, &root); err != nil {
		return ""
	}
	segs := splitPointer(path)
	if segs == nil {
		return ""
	}
	w := pointerWalk{segs: segs, needLast: needLast, v: v}
	cur := root
	for i := range segs {
		next, hint, stop := w.step(cur, i)
		if stop {
			return hint
		}
		cur = next
	}
	return ""
}

// pointerWalk follows a pointer's segments through a decoded document.
type pointerWalk struct {
	segs     []string
	needLast bool // the operation needs the last step there (not add)
	v        view
}

// step goes from cur, the value at segs[:i], to the value at segs[:i+1].
// It stops where that is not there: with the hint saying why, or with ""
// when the operation may add it.
func (w pointerWalk) step(cur any, i int) (next any, hint string, stop bool) {
	switch c := cur.(type) {
	case map[string]any:
		return w.mapStep(c, i)
	case []any:
		return w.listStep(c, i)
	}
	return nil, fmt.Sprintf("%s is %s, not a map or list, so %s cannot go into it", w.at(i), valueName(cur), strconv.Quote(w.segs[i])), true
}

func (w pointerWalk) mapStep(m map[string]any, i int) (any, string, bool) {
	if next, ok := m[w.segs[i]]; ok {
		return next, "", false
	}
	if w.adds(i) {
		return nil, "", true
	}
	hide := w.v.secret && (w.v.embedded || isSecretData(w.segs[:i]))
	return nil, missingKey(m, w.segs, i, w.at(i), hide, shapeAt(w.v.shape, w.segs[:i]).Names()), true
}

// listStep takes an index, or "-" (the end) where the operation adds.
func (w pointerWalk) listStep(l []any, i int) (any, string, bool) {
	seg := w.segs[i]
	if seg == "-" && w.adds(i) {
		return nil, "", true
	}
	n, err := strconv.Atoi(seg)
	switch {
	case err != nil || seg != strconv.Itoa(n):
		return nil, fmt.Sprintf("%s is a list: a JSON patch path selects its elements by index (0 to %d), not %q", w.at(i), len(l)-1, seg), true
	case w.adds(i) && n == len(l):
		return nil, "", true
	}
	if e, ok := element(l, n); ok {
		return e, "", false
	}
	return nil, fmt.Sprintf("%s has %s, so there is no index %d", w.at(i), elements(len(l)), n), true
}

// element is l[n], a negative n counted from the end as the library counts
// it (-1 is the last element).
func element(l []any, n int) (any, bool) {
	if n < 0 {
		n += len(l)
	}
	if n < 0 || n >= len(l) {
		return nil, false
	}
	return l[n], true
}

// adds reports whether segment i is the last and the operation adds it.
func (w pointerWalk) adds(i int) bool { return i == len(w.segs)-1 && !w.needLast }

// at names, as messages do, where segment i is looked up.
func (w pointerWalk) at(i int) string { return w.v.displayAt(joinPointer(w.segs[:i])) }

// missingKey says that map m at path at (as messages name it) lacks
// segs[i], naming the nearest key and those there unless hide is set.
// fields are the fields the schema gives the map (none when it has no
// word on it): a key missing there may be a field not set, or the near
// miss of one, which only op add can set.
func missingKey(m map[string]any, segs []string, i int, at string, hide bool, fields []string) string {
	msg := fmt.Sprintf("%s has no key %q", at, segs[i])
	if hide {
		return msg
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var hints []string
	if near := suggest.Nearest(segs[i], keys); near != "" {
		hints = append(hints, "did you mean "+withSegment(segs, i, near)+"?")
	} else if h := unsetField(segs, i, fields); h != "" {
		hints = append(hints, h)
	}
	if len(keys) == 0 {
		hints = append(hints, "it is empty")
	} else {
		const most = 12
		if len(keys) > most {
			keys = append(keys[:most:most], "…")
		}
		hints = append(hints, "keys there: "+strings.Join(keys, ", "))
	}
	return msg + " (" + strings.Join(hints, " ") + ")"
}

// unsetField says, for a key segs[i] the document lacks, that the schema
// has it, or its near miss, unset here: op add sets it. "" when the
// schema has neither.
func unsetField(segs []string, i int, fields []string) string {
	if slices.Contains(fields, segs[i]) {
		return fmt.Sprintf("it is not set here: op add sets %s;", joinPointer(segs[:i+1]))
	}
	if near := suggest.Nearest(segs[i], fields); near != "" {
		return fmt.Sprintf("did you mean %s? it is not set here: op add sets it;", withSegment(segs, i, near))
	}
	return ""
}

// withSegment is the pointer segs with segment i replaced by seg.
func withSegment(segs []string, i int, seg string) string {
	fixed := append(append([]string{}, segs[:i]...), seg)
	return joinPointer(append(fixed, segs[i+1:]...))
}

// shapeAt is the schema's shape of the value at segs below a resource of
// shape root: what fields a map there may have.
func shapeAt(root schema.Shape, segs []string) schema.Shape {
	sh := root
	for _, seg := range segs {
		if sh.Kind() == schema.List {
			sh = sh.Elem()
			continue
		}
		sh, _ = sh.Field(seg)
	}
	return sh
}

// isSecretData reports whether a path inside a Secret leads to or below its
// data or stringData.
func isSecretData(segs []string) bool {
	return len(segs) > 0 && (segs[0] == "data" || segs[0] == "stringData")
}

// splitPointer splits an RFC 6901 pointer into its unescaped segments; nil
// for "" (the whole document) or a pointer that does not start with "/".
func splitPointer(p string) []string {
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

// joinPointer writes segments back as a pointer, escaping ~ and /.
func joinPointer(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// view is how messages see the document a patch applies to.
type view struct {
	// secret is set for a Secret, or (with embedded) a Secret's value.
	secret bool
	// embedded is set for a document held in a string, whose root is not a
	// resource.
	embedded bool
	// shape is the schema's word on a resource's fields (built-in kinds):
	// the zero Shape, unchecked, for anything else.
	shape schema.Shape
}

func (v view) displayAt(at string) string {
	switch {
	case at != "":
		return at
	case v.embedded:
		return "the document"
	}
	return "the resource"
}

func elements(n int) string {
	if n == 1 {
		return "1 element"
	}
	return fmt.Sprintf("%d elements", n)
}

// valueName names a JSON value's type, not the value: it may be secret.
func valueName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a value"
}

// opHint explains why operation op does not apply to doc: its from (move,
// copy) or its path does not resolve. "" when both do.
func opHint(doc []byte, kind, path, from string, v view) string {
	if kind == "move" || kind == "copy" {
		if h := pathHint(doc, from, true, v); h != "" {
			return "from: " + h
		}
	}
	return pathHint(doc, path, kind != "add" && kind != "move" && kind != "copy", v)
}
