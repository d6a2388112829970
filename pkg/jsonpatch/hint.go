package jsonpatch

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/patchwork-krm/patchwork/internal/suggest"
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
	cur := root
	for i, seg := range segs {
		last := i == len(segs)-1
		at := joinPointer(segs[:i])
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[seg]
			if ok {
				cur = next
				continue
			}
			if last && !needLast {
				return ""
			}
			return missingKey(c, segs, i, v.displayAt(at), v.secret && (v.embedded || isSecretData(segs[:i])))
		case []any:
			if seg == "-" && last && !needLast {
				return ""
			}
			n, err := strconv.Atoi(seg)
			switch {
			case err != nil || seg != strconv.Itoa(n):
				return fmt.Sprintf("%s is a list: a JSON patch path selects its elements by index (0 to %d), not %q", v.displayAt(at), len(c)-1, seg)
			case n < len(c):
				cur = c[n]
				continue
			case last && !needLast && n == len(c):
				return ""
			}
			return fmt.Sprintf("%s has %s, so there is no index %d", v.displayAt(at), elements(len(c)), n)
		default:
			return fmt.Sprintf("%s is %s, not a map or list, so %s cannot go into it", v.displayAt(at), valueName(c), strconv.Quote(seg))
		}
	}
	return ""
}

// missingKey says that map m at path at (as messages name it) lacks
// segs[i], naming the nearest key and those there unless hide is set.
func missingKey(m map[string]any, segs []string, i int, at string, hide bool) string {
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
		fixed := append(append([]string{}, segs[:i]...), near)
		fixed = append(fixed, segs[i+1:]...)
		hints = append(hints, "did you mean "+joinPointer(fixed)+"?")
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
